// What the engine's two source files share (engine internal): the bookkeeping of one launch and
// one chunk of a round-synchronous round.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

#include "sim/engine.h"

namespace mmsim {

// Registers and bookkeeping of one launch.
struct Engine::LaunchState {
  // Zeroed by calloc: a large block comes as fresh pages the system zeroes when they are first
  // touched, by the threads that run the rounds, so the registers are never swept once more to
  // zero them (a vector would zero them on one thread, new[] and a fill twice).
  struct Free {
    void operator()(Word* p) const { std::free(p); }
  };
  std::vector<std::unique_ptr<Word, Free>> reg_storage;  // a band's threads' cells per register
  // regs[r][t]: register r of thread t, t over the whole launch. In a launch run in bands
  // (sim/engine.h) the storage holds one band, and regs[r] is its start less the band's first
  // thread, so that a thread's launch index still finds its cell (only the band's are touched).
  std::vector<Word*> regs;
  std::uint64_t warps_per_block = 0;
  std::uint64_t warps = 0;
  std::uint64_t band_warps = 0;  // warps run at once through every step (all of them unless banded)

  // Points the registers at band [first_warp, ...) and zeroes them for all but the first band: a
  // thread's registers start at 0.
  void start_band(std::uint64_t first_warp, std::uint64_t w) {
    const std::uint64_t first_thread = first_warp * w;
    for (std::size_t r = 0; r < regs.size(); ++r) {
      if (first_warp > 0) std::fill_n(reg_storage[r].get(), band_warps * w, Word{0});
      regs[r] = reg_storage[r].get() - first_thread;
    }
  }
  int first_round = 0;             // index of this launch's first round in stats_.rounds
  std::vector<int> round_of_step;  // -1 for steps that are not memory instructions
};

// How one chunk of a write round marks the cells it writes, so that each cell keeps its lowest
// writer's value (sim/engine_rounds.cpp, access_chunk). A read round passes none.
struct Engine::WriteMarks {
  std::uint64_t* written = nullptr;        // cells written so far: the round's, the worker's own, or the band's
  std::uint64_t* collided = nullptr;       // with several chunks: cells written twice
  const std::uint64_t* claimed = nullptr;  // in bands: cells an earlier band wrote in this round
  bool shared = false;                     // `written` is the band's, set atomically by every worker
};

// One chunk of a round-synchronous round: warps [first_warp, end_warp), run by one thread, with
// everything it produces kept apart until the chunks are merged in warp order. Aligned to a cache
// line so that chunks run by different threads do not share one.
struct alignas(64) Engine::Chunk {
  std::uint64_t first_warp = 0, end_warp = 0;
  RoundStats counts;                      // counters only (requests, warps, slots, ...)
  std::vector<std::uint64_t> pipe_slots;  // slots issued to each pipeline (global, or DMM d)
  std::vector<SlotEvent> trace;           // entries counted from the chunk's first slot in its pipeline
  // After collisions: this chunk's lowest writer of each collided cell, and which cell of the
  // writer's vector it is.
  struct Writer {
    std::uint64_t cell;
    ThreadId thread;
    std::uint32_t k;
  };
  std::vector<Writer> lowest_writers;
};

}  // namespace mmsim
