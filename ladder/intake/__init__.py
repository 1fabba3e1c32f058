"""Intake: how a bot comes into the ladder, and whether it would.

Above the store; knows nothing of rating, running or scheduling:

- `copying`: an untrusted bot copied into the store within limits, and
  hashed;
- `archive`: a bot's files as one archive, packed and unpacked within
  limits (to workers, to the service);
- `roster`: the built-in bots and how a registered bot's command line is
  built;
- `submission`: a submission checked (bot.toml, a validation match),
  copied in and registered (`referee submit`);
- `check`: would this bot pass submission, and if not, why (`referee check`);
- `named_bots`: a bot folder or a registered bot named on `referee play`'s
  command line.
"""
