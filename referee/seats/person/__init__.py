"""A person in a seat: `PersonSeat` (seat.py) and where they play it, a
`Desk`: a web page (referee.web.seat_server) or a terminal (terminal.py).
What they are shown of a decision is its `Menu` (menu.py)."""

from referee.seats.person.seat import PERSON, PERSON_MOVE_TIME, Desk, DeskClosed, PersonSeat, person_clock

__all__ = ["PERSON", "PERSON_MOVE_TIME", "Desk", "DeskClosed", "PersonSeat", "person_clock"]
