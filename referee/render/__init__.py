"""Readable rich renderings of a match: the table, the events, the decisions.

The table is drawn only from observations (G-10, S-8), never from the full
state, so what it shows is exactly what its viewer may know:

- one seat's view: that seat's observation;
- a spectator (`referee play`): what *every* seat knows — a card shows as
  itself only if all observations show it, which is precisely public
  knowledge;
- the whole table (`referee replay` without --seat): what *any* seat knows,
  so every hand shows in full while face-down cards nobody has seen stay
  face down.

Events are described from their record JSON; `MatchView` chooses which
events a viewer gets (by `visible_to`). Each game draws itself in its own
package (its `render` module: a `GameRenderer` its `GamePlugin` declares); a
game without one is shown as plain text of each event.
"""

from referee.render.common import ANY, PUBLIC, GameRenderer, seat_label, seat_names
from referee.render.view import MatchView, decision_text, event_text, match_title, render_table, result_table

__all__ = ["ANY", "PUBLIC", "GameRenderer", "MatchView", "decision_text", "event_text", "match_title",
           "render_table", "result_table", "seat_label", "seat_names"]
