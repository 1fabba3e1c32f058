"""The store: the ladder's persistent state and the values it keeps.

The lowest room of the ladder (docs/architecture.md, "The ladder's rooms"):
it imports nothing of the ladder above it.

- `database`: the SQLite store (`Store`): bots, planned matches, results,
  ratings, logs' places; every SQL statement of the ladder;
- `schema`: the schema and its ordered migrations;
- `tasks`: the matches planned, played and failed, as the scheduler, the
  workers and the store exchange them;
- `skill`: a rating as it is stored (`Skill`: mu, sigma);
- `strikes`: strikes by reason, read from a record's footer;
- `rule_set_names`: the rule set a match counts for and the bots it may seat.
"""
