// Where a traced run's slots go while it runs. A trace holds one row per slot, so a large run's
// trace is larger than its data (n = 2^26 gives tens of GiB in memory); a sink takes the rows as
// they are produced and the engine keeps only what it has not handed on.
#pragma once

#include <span>

#include "sim/stats.h"

namespace mmsim {

/// Contract:
///  - the engine calls consume() with the slots in exactly the order Engine::trace() would hold
///    them, so the rows a sink receives, concatenated, are the in-memory trace;
///  - it calls it with each chunk of a round-synchronous round as the chunks are merged (a round
///    on one thread is one chunk), within an asynchronous launch whenever a batch of 32768 slots
///    has gathered, and at the end of every launch: the engine holds at most one round's slots
///    (round-synchronous: the chunks are computed side by side before they are merged) or one
///    batch (asynchronous), never the whole run's;
///  - `stats` holds every round the slots refer to (SlotEvent::round indexes stats.rounds);
///  - an exception from consume() (a failed write) ends the launch and reaches its caller.
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void consume(std::span<const SlotEvent> slots, const RunStats& stats) = 0;
};

}  // namespace mmsim
