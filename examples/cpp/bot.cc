// A starter bot for the bot-referee tournament harness in C++ (docs/protocol.md):
// a gRPC server of tournament.v1.Bot on a Unix socket, with the standard
// health service and server reflection.
//
//   make                          # generates the protocol's code from ../../proto, builds ./bot
//   ./bot --socket /tmp/bot.sock
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <string>

#include "strategy.h"
#include "tournament/v1/tournament.grpc.pb.h"

namespace {

constexpr char kName[] = "starter-cpp";
constexpr char kVersion[] = "1";
constexpr const char* kGames[] = {"gnadenlos", "saboteur", "leduc"};
constexpr uint32_t kProtocolVersion = 1;

using grpc::ServerContext;
using grpc::Status;
using tournament::v1::BotMessage;
using tournament::v1::RefereeMessage;

class StarterBot final : public tournament::v1::Bot::Service {
  Status Handshake(ServerContext*, const tournament::v1::HandshakeRequest*,
                   tournament::v1::HandshakeResponse* response) override {
    response->set_name(kName);
    response->set_version(kVersion);
    response->set_protocol_version(kProtocolVersion);
    for (const char* game : kGames) response->add_games(game);
    return Status::OK;
  }

  // One match is one Play stream; the process plays consecutive matches, one
  // at a time, so the match's game is all the state this bot keeps. Read()
  // returns false once the referee closes its side after MatchEnd; returning
  // then closes ours.
  Status Play(ServerContext*, grpc::ServerReaderWriter<BotMessage, RefereeMessage>* stream) override {
    std::string game;
    RefereeMessage message;
    while (stream->Read(&message)) {
      if (message.has_match_start()) {
        game = message.match_start().game();
      } else if (message.has_decide()) {
        const auto& decide = message.decide();
        BotMessage answer;
        auto* decision = answer.mutable_decision();
        decision->set_request_id(decide.request_id());
        // The action goes back by value: the GameAction exactly as offered.
        *decision->mutable_action() = decide.legal_actions(starter::Choose(game, decide));
        if (!stream->Write(answer)) break;
      }
      // notify (events; the observation in each decide is complete), match_end: nothing to do
    }
    return Status::OK;
  }
};

// Run the strategy and the codecs once on a small decision of each game, so
// the first real decision finds everything paged in.
void WarmUp() {
  for (const char* game : kGames) {
    RefereeMessage message;
    auto* decide = message.mutable_decide();
    decide->set_request_id(1);
    if (std::strcmp(game, "leduc") == 0) {
      decide->mutable_observation()->mutable_leduc()->add_contributions(1);
      decide->add_legal_actions()->mutable_leduc()->set_move(leduc::v1::MOVE_CALL);
    } else if (std::strcmp(game, "saboteur") == 0) {
      decide->mutable_observation()->mutable_saboteur();
      decide->add_legal_actions()->mutable_saboteur()->mutable_pass_turn();
    } else {
      decide->mutable_observation()->mutable_gnadenlos();
      decide->add_legal_actions()->mutable_gnadenlos()->mutable_final_buy();
    }
    RefereeMessage copy;
    copy.ParseFromString(message.SerializeAsString());
    starter::Choose(game, copy.decide());
  }
}

std::string SocketPath(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--socket") == 0) return argv[i + 1];
  }
  const char* env = std::getenv("REFEREE_BOT_SOCKET");
  return env ? env : "";
}

}  // namespace

int main(int argc, char** argv) {
  const std::string socket = SocketPath(argc, argv);
  if (socket.empty()) {
    std::fprintf(stderr, "usage: %s --socket PATH (or set REFEREE_BOT_SOCKET)\n", argv[0]);
    return 2;
  }
  // SIGTERM and SIGINT are taken by sigwait() below, not by a handler: block
  // them before gRPC starts its threads, which inherit the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  WarmUp();
  StarterBot bot;
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();

  // The referee connects as soon as the socket file exists, so bind a
  // temporary name in the same folder and rename it into place once the
  // server accepts (a stale file at the path is removed first).
  const std::string temporary = socket + "." + std::to_string(getpid());
  std::remove(socket.c_str());
  std::remove(temporary.c_str());
  grpc::ServerBuilder builder;
  builder.AddListeningPort("unix:" + temporary, grpc::InsecureServerCredentials());
  builder.RegisterService(&bot);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) {
    std::fprintf(stderr, "cannot listen on %s\n", temporary.c_str());
    return 1;
  }
  // The empty service name reports SERVING by default; the bot's own too.
  server->GetHealthCheckService()->SetServingStatus("tournament.v1.Bot", true);
  if (std::rename(temporary.c_str(), socket.c_str()) != 0) {
    std::perror("rename");
    return 1;
  }
  std::fprintf(stderr, "%s %s serving on %s\n", kName, kVersion, socket.c_str());

  // SIGTERM ends the bot: stop accepting, give a running call two seconds, exit 0.
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  return 0;
}
