"""Reporting: what people read of a ladder, in a terminal, a log or a page.

Above the rating and the scheduling (a run's status); below the service,
which serves these same tables and pages:

- `tables`: the standings as `referee table` prints them (and the service
  for `--server`);
- `render`: rich renderings: standings, head-to-head, seats, bots, the live
  view of a run;
- `progress`: a run's progress as plain lines, for a log;
- `report`: what the report page shows, as data and charts;
- `report_page`: the report as one self-contained HTML file (`static/`:
  its script, charts and style), with a viewer page per recent match.
"""
