"""`referee exploitability`: a bot's exploitability in heads-up Leduc poker, measured over the wire.

The bot, a process in its jail, plays scripted evaluation matches through
the one match loop until it has answered in every information state its
own answers lead to; OpenSpiel computes the exploitability of its answers'
frequencies, with an interval (docs/training.md, "Exploitability over the
wire").

- `tree`: OpenSpiel's game tree, flattened: each seat's view, and best
  responses to many policies at once;
- `walk`: which match to play next and how the scripted opponent plays;
- `deals`: the evaluation deal, a seed chosen for the bot's card;
- `seats`: the bot's seat that notes its answers, the scripted opponent;
- `run`: the matches, played by `referee.match.run_match`;
- `estimate`: the estimate and its interval.

Needs OpenSpiel (the `train` extra); the command line imports it only for
this command.
"""
