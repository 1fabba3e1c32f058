"""Who plays a seat of a match, behind one interface (`Seat`, referee/seats/base.py).

- `ProcessSeat` (referee/seats/process.py) — a bot process over gRPC
- `InProcessSeat` (referee/seats/in_process.py) — a bot object in this process
- `PlayerSeat`, `StatePolicySeat` (referee/seats/policy.py) — policy functions

The match loop that drives them is referee/match.py; docs/architecture.md
draws the whole picture.
"""

from referee.seats.base import Answer, MatchEnd, MatchStart, Request, Seat, SeatInfo, TrustedSeat

__all__ = ["Answer", "MatchEnd", "MatchStart", "Request", "Seat", "SeatInfo", "TrustedSeat"]
