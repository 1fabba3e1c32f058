// The starter bot's strategy: one simple, sensible rule per game (the same
// rules as the Python and C++ kits). Every rule only chooses among the legal
// actions the referee offered, so the bot can never play an illegal move; a
// kind of action the rules do not know (a new variant's decision) scores 0,
// and ties go to the first action offered.
'use strict';

// Messages arrive as plain objects (proto-loader with keepCase, enums as
// their names, defaults filled in, oneofs named): action.kind === 'bid' says
// which field of the Action oneof is set.

function gnadenlosScore(observation, action, legal) {
  // Bid cheaply (every IOU bid is paid back at a payday, G-8), buy prestige
  // with half of what could be spent during the match (keep nuggets for
  // paydays) and with all of it at the end (G-9.3).
  switch (action.kind) {
    case 'bid': {
      const total = action.bid.values.reduce((sum, value) => sum + value, 0);
      return -(total * 10 + action.bid.values.length);
    }
    case 'buy': {
      const most = Math.max(...legal.map((a) => a.buy.steps));
      return -Math.abs(action.buy.steps - Math.floor(most / 2));
    }
    case 'final_buy':
      return action.final_buy.steps;
    default:
      return 0; // commit, take, refill, pick, opt out: the first offered
  }
}

function saboteurScore(observation, action) {
  // A gold-digger digs towards the goals at x = 8 (S-4.1) with through paths
  // and repairs tools; a saboteur blocks with dead ends and breaks tools.
  // Both discard only when nothing better is left.
  const saboteur = observation.role === 'CARD_SABOTEUR';
  const deadEnd = (card) => card.startsWith('CARD_DEAD_');
  switch (action.kind) {
    case 'place_path': {
      const p = action.place_path;
      if (deadEnd(p.card) === saboteur) return 100 + p.x - Math.abs(p.y); // nearer the goals
      return -50;
    }
    case 'repair':
      return saboteur ? -100 : 50;
    case 'break_tool':
      return saboteur ? 60 : -100;
    case 'discard':
      return deadEnd(action.discard.card) ? 10 : 0;
    default:
      return -10; // a map, a rockfall: kept for later
  }
}

function leducScore(observation, action) {
  // Raise with a pair (L-5.2) or the highest rank, fold the lowest rank when
  // calling costs chips in the second round, else call (or check).
  const rank = Math.floor(observation.card / 2);
  const hasPublic = observation.public_card !== undefined && observation.public_card !== null;
  const pair = hasPublic && Math.floor(observation.public_card / 2) === rank;
  const strong = pair || rank === observation.num_seats; // ranks run 0 .. num_seats
  const owed = observation.stakes - observation.contributions[observation.seat];
  const weak = rank === 0 && !pair && observation.round === 2 && owed > 0;
  switch (action.move) {
    case 'MOVE_RAISE':
      return strong ? 2 : 0;
    case 'MOVE_FOLD':
      return weak ? 3 : -1;
    default:
      return 1;
  }
}

const SCORES = { gnadenlos: gnadenlosScore, saboteur: saboteurScore, leduc: leducScore };

// The index of the action to play among `legal`: the best score, ties to the first.
function choose(game, observation, legal) {
  const score = SCORES[game];
  if (!score) return 0;
  let best = 0;
  let bestScore = -Infinity;
  legal.forEach((action, i) => {
    const s = score(observation, action, legal);
    if (s > bestScore) {
      best = i;
      bestScore = s;
    }
  });
  return best;
}

module.exports = { choose };
