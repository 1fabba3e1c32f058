// The starter bot's strategy: one simple, sensible rule per game (the same
// rules as the Python and JavaScript kits). Every rule only chooses among the
// legal actions the referee offered, so the bot can never play an illegal
// move; a kind of action the rules do not know (a new variant's decision)
// scores 0, and ties go to the first action offered.
#pragma once

#include "tournament/v1/tournament.pb.h"

namespace starter {

// The index in decide.legal_actions() of the action to play.
int Choose(const std::string& game, const tournament::v1::Decide& decide);

}  // namespace starter
