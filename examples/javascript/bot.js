// A starter bot for the bot-referee tournament harness in Node.js
// (docs/protocol.md): a gRPC server of tournament.v1.Bot on a Unix socket,
// with the standard health service and server reflection.
//
//   npm ci                       # dependencies (node_modules/); proto/ is the protocol's .proto files
//   node bot.js --socket /tmp/bot.sock
'use strict';
const fs = require('fs');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const { HealthImplementation } = require('grpc-health-check');
const { ReflectionService } = require('@grpc/reflection');
const { choose } = require('./strategy');

const NAME = 'starter-javascript';
const VERSION = '1';
const GAMES = ['gnadenlos', 'saboteur', 'leduc'];
const PROTOCOL_VERSION = 1;

// Files are found next to this script: the jail runs the bot in a fresh,
// empty working folder.
const definition = protoLoader.loadSync('tournament/v1/tournament.proto', {
  includeDirs: [path.join(__dirname, 'proto')],
  keepCase: true, // field names as in the .proto and docs/protocol.md: request_id, legal_actions
  longs: String, // request_id is a uint64: as a string it is echoed back exactly
  enums: String, // enum values by name: 'CARD_SABOTEUR', 'MOVE_RAISE'
  defaults: true, // seat 0, false and empty lists arrive as values, not missing
  oneofs: true, // each message names its oneof's field: message.kind === 'decide'
});
const tournament = grpc.loadPackageDefinition(definition).tournament.v1;

// One match is one Play stream; the process plays consecutive matches, one
// at a time, so the match's game is all the state this bot keeps.
function play(call) {
  let game = null;
  call.on('data', (message) => {
    switch (message.kind) {
      case 'match_start':
        game = message.match_start.game;
        break;
      case 'decide': {
        const decide = message.decide;
        const legal = decide.legal_actions.map((action) => action[game]);
        const chosen = choose(game, decide.observation[game], legal);
        // The action goes back by value: the GameAction exactly as offered.
        call.write({ decision: { request_id: decide.request_id, action: decide.legal_actions[chosen] } });
        break;
      }
      default:
        break; // notify (events; the observation in each decide is complete), match_end, unknown kinds
    }
  });
  call.on('end', () => call.end()); // the referee closed its side after MatchEnd: close ours
  call.on('error', (error) => console.error(`play stream: ${error.message}`));
}

function handshake(call, callback) {
  callback(null, { name: NAME, version: VERSION, protocol_version: PROTOCOL_VERSION, games: GAMES });
}

// Encode and decode a message of every game and run the strategy once, so
// that protobuf.js compiles its codecs now, not during the first decision.
function warmUp() {
  const service = tournament.Bot.service;
  const samples = [
    { game: 'gnadenlos', obs: {}, actions: [{ final_buy: { steps: 0 } }, { final_buy: { steps: 1 } }] },
    { game: 'saboteur', obs: {}, actions: [{ pass_turn: {} }, { discard: { card: 'CARD_NS' } }] },
    { game: 'leduc', obs: { contributions: [1, 1] }, actions: [{ move: 'MOVE_CALL' }, { move: 'MOVE_RAISE' }] },
  ];
  for (const { game, obs, actions } of samples) {
    const decide = {
      decide: {
        request_id: '1',
        observation: { [game]: obs },
        legal_actions: actions.map((action) => ({ [game]: action })),
        deadline_ms: 1000,
      },
    };
    const bytes = service.Play.responseSerialize({ decision: { request_id: '1', action: { [game]: actions[0] } } });
    service.Play.responseDeserialize(bytes);
    const message = service.Play.requestDeserialize(service.Play.requestSerialize(decide));
    choose(game, message.decide.observation[game], message.decide.legal_actions.map((a) => a[game]));
    service.Play.requestDeserialize(service.Play.requestSerialize({ notify: { events: [{ [game]: {} }] } }));
  }
}

function socketPath() {
  const i = process.argv.indexOf('--socket');
  const socket = i >= 0 ? process.argv[i + 1] : process.env.REFEREE_BOT_SOCKET;
  if (!socket) {
    console.error('usage: node bot.js --socket PATH (or set REFEREE_BOT_SOCKET)');
    process.exit(2);
  }
  return socket;
}

function main() {
  const socket = socketPath();
  warmUp();
  const server = new grpc.Server();
  server.addService(tournament.Bot.service, { handshake, play });
  new HealthImplementation({ '': 'SERVING', 'tournament.v1.Bot': 'SERVING' }).addToServer(server);
  new ReflectionService(definition).addToServer(server);

  // The referee connects as soon as the socket file exists, so bind a
  // temporary name in the same folder and rename it into place once the
  // server accepts (a stale file at the path is removed first).
  const temporary = `${socket}.${process.pid}`;
  fs.rmSync(socket, { force: true });
  fs.rmSync(temporary, { force: true });
  server.bindAsync(`unix:${temporary}`, grpc.ServerCredentials.createInsecure(), (error) => {
    if (error) {
      console.error(`cannot listen on ${temporary}: ${error.message}`);
      process.exit(1);
    }
    fs.renameSync(temporary, socket);
    console.error(`${NAME} ${VERSION} serving on ${socket}`);
  });

  // SIGTERM ends the bot: stop accepting, let a running call finish, exit 0.
  const stop = () => {
    setTimeout(() => process.exit(0), 2000).unref();
    server.tryShutdown(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main();
