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
///  - it calls it at the latest after every round-synchronous round and at the end of every
///    launch, and within an asynchronous launch whenever a bounded batch has gathered: what the
///    engine holds is at most one round's slots (round-synchronous) or one batch (asynchronous);
///  - `stats` holds every round the slots refer to (SlotEvent::round indexes stats.rounds);
///  - an exception from consume() (a failed write) ends the launch and reaches its caller.
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void consume(std::span<const SlotEvent> slots, const RunStats& stats) = 0;
};

}  // namespace mmsim
