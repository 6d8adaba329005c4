// A loop over [0, n) cut into pieces that a WorkerPool runs at once: for work whose pieces write
// places of their own (sim/workers.h's contract), so that the result is the same for every number
// of threads.
#pragma once

#include <cstdint>

#include "sim/workers.h"

namespace mmsim {

/// Runs body(first, end) over [0, n) in pieces on the pool: eight a worker, so that pieces of
/// uneven cost even out; one piece when the pool has one worker.
template <typename Body>
void parallel_for(WorkerPool& pool, std::uint64_t n, const Body& body) {
  const std::uint64_t pieces = pool.threads() == 1 ? 1 : 8 * std::uint64_t{pool.threads()};
  pool.run(pieces, [&](std::size_t c) { body(n * c / pieces, n * (c + 1) / pieces); });
}

}  // namespace mmsim
