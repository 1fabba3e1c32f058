#include "strategy.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <limits>

namespace starter {
namespace {

using google::protobuf::RepeatedPtrField;
using tournament::v1::GameAction;

bool DeadEnd(saboteur::v1::Card card) {
  return card >= saboteur::v1::CARD_DEAD_NESW && card <= saboteur::v1::CARD_DEAD_E;
}

// Gnadenlos!: bid cheaply (every IOU bid is paid back at a payday, G-8), buy
// prestige with half of what could be spent during the match (keep nuggets
// for paydays) and with all of it at the end (G-9.3).
double GnadenlosScore(const gnadenlos::v1::Observation&, const gnadenlos::v1::Action& action,
                      const RepeatedPtrField<GameAction>& legal) {
  using Action = gnadenlos::v1::Action;
  switch (action.kind_case()) {
    case Action::kBid: {
      int total = 0;
      for (uint32_t value : action.bid().values()) total += static_cast<int>(value);
      return -(total * 10 + action.bid().values_size());
    }
    case Action::kBuy: {
      int most = 0;
      for (const GameAction& a : legal) most = std::max(most, static_cast<int>(a.gnadenlos().buy().steps()));
      return -std::abs(static_cast<int>(action.buy().steps()) - most / 2);
    }
    case Action::kFinalBuy:
      return action.final_buy().steps();
    default:
      return 0;  // commit, take, refill, pick, opt out: the first offered
  }
}

// Saboteur: a gold-digger digs towards the goals at x = 8 (S-4.1) with
// through paths and repairs tools; a saboteur blocks with dead ends and breaks
// tools. Both discard only when nothing better is left.
double SaboteurScore(const saboteur::v1::Observation& observation, const saboteur::v1::Action& action) {
  using Action = saboteur::v1::Action;
  const bool saboteur = observation.role() == saboteur::v1::CARD_SABOTEUR;
  switch (action.kind_case()) {
    case Action::kPlacePath: {
      const auto& path = action.place_path();
      if (DeadEnd(path.card()) == saboteur) return 100 + path.x() - std::abs(path.y());  // nearer the goals
      return -50;
    }
    case Action::kRepair:
      return saboteur ? -100 : 50;
    case Action::kBreakTool:
      return saboteur ? 60 : -100;
    case Action::kDiscard:
      return DeadEnd(action.discard().card()) ? 10 : 0;
    default:
      return -10;  // a map, a rockfall: kept for later
  }
}

// Leduc poker: raise with a pair (L-5.2) or the highest rank, fold the lowest
// rank when calling costs chips in the second round, else call (or check).
double LeducScore(const leduc::v1::Observation& observation, const leduc::v1::Action& action) {
  const int rank = observation.card() / 2;
  const bool pair = observation.has_public_card() && observation.public_card() / 2 == rank;
  const bool strong = pair || rank == observation.num_seats();  // ranks run 0 .. num_seats
  const int seat = observation.seat();
  const int paid = seat < observation.contributions_size() ? observation.contributions(seat) : 0;
  const bool weak = rank == 0 && !pair && observation.round() == 2 && observation.stakes() > paid;
  switch (action.move()) {
    case leduc::v1::MOVE_RAISE:
      return strong ? 2 : 0;
    case leduc::v1::MOVE_FOLD:
      return weak ? 3 : -1;
    default:
      return 1;
  }
}

}  // namespace

int Choose(const std::string& game, const tournament::v1::Decide& decide) {
  const auto& legal = decide.legal_actions();
  const auto& observation = decide.observation();
  std::function<double(const GameAction&)> score;
  if (game == "gnadenlos") {
    score = [&](const GameAction& a) { return GnadenlosScore(observation.gnadenlos(), a.gnadenlos(), legal); };
  } else if (game == "saboteur") {
    score = [&](const GameAction& a) { return SaboteurScore(observation.saboteur(), a.saboteur()); };
  } else if (game == "leduc") {
    score = [&](const GameAction& a) { return LeducScore(observation.leduc(), a.leduc()); };
  } else {
    return 0;
  }
  int best = 0;
  double best_score = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < legal.size(); ++i) {
    const double s = score(legal[i]);
    if (s > best_score) {
      best = i;
      best_score = s;
    }
  }
  return best;
}

}  // namespace starter
