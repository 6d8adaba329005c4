// The explorer's entry points handed to JavaScript with Emscripten's embind: each returns the JSON
// text of explorer_api.h, which the page parses and draws.
#include <emscripten/bind.h>

#include "explorer/explorer_api.h"

EMSCRIPTEN_BINDINGS(mmsim_explorer) {
  emscripten::function("access", &mmsim::explorer::access);
  emscripten::function("layout", &mmsim::explorer::layout);
  emscripten::function("algorithms", &mmsim::explorer::algorithms);
  emscripten::function("run", &mmsim::explorer::run);
  emscripten::function("trace", &mmsim::explorer::trace);
  emscripten::function("kernel", &mmsim::explorer::kernel);
}
