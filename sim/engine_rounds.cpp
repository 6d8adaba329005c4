// Round-synchronous execution (docs/model.md "Rounds and barriers"), spread over host threads.
//
// Every warp is ready at a round's start, so each pipeline takes its warps' slots back to back in
// warp order, and the round's time follows from the slot counts (S + latency - 1 per pipeline, the
// maximum over the k DMMs for shared memory). What a warp contributes (its addresses, cost,
// statistics, data movement and trace) depends on no other warp of the round except through the
// lowest-writer rule and the pipelines' order. So the round's warps are split into chunks of
// consecutive warps that threads run independently, and the chunks are merged in warp order
// (sim/engine.h states the rule and what it asks of programs).
#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <unordered_set>

#include "sim/engine.h"
#include "sim/engine_internal.h"
#include "sim/pipeline.h"
#include "sim/round_counts.h"
#include "sim/workers.h"

namespace mmsim {

namespace {

// Relaxed atomic store and or (returning the bits before) on a plain cell shared by the workers: std::atomic_ref where
// the standard library has it, else the compiler builtins it is made of (the libc++ of Debian's Emscripten, which
// builds the explorer, has no atomic_ref yet).
#if defined(__cpp_lib_atomic_ref)
template <typename T>
void relaxed_store(T& cell, T value) {
  std::atomic_ref<T>(cell).store(value, std::memory_order_relaxed);
}
template <typename T>
T relaxed_or(T& cell, T bits) {
  return std::atomic_ref<T>(cell).fetch_or(bits, std::memory_order_relaxed);
}
#else
template <typename T>
void relaxed_store(T& cell, T value) {
  __atomic_store_n(&cell, value, __ATOMIC_RELAXED);
}
template <typename T>
T relaxed_or(T& cell, T bits) {
  return __atomic_fetch_or(&cell, bits, __ATOMIC_RELAXED);
}
#endif

// A chunk of 512 warps (16384 threads at w = 32) takes a fraction of a millisecond, well above the
// cost of handing it to a thread; rounds of fewer than two chunks run on the calling thread.
constexpr std::uint64_t kChunkWarps = 512;
// Enough chunks for a busy machine's cores to share a round's work evenly.
constexpr std::size_t kMaxChunks = 256;
// How far ahead a round through a register prefetches its cells: one warp's w random cells already
// keep the host's outstanding misses busy.
constexpr std::uint64_t kPrefetchWarps = 2;

}  // namespace

std::size_t Engine::chunks_for(std::uint64_t warps, bool order_free) {
  const unsigned threads = resolve_threads(options_.threads);
  if (threads <= 1 || !order_free) return 1;
  const std::uint64_t per = options_.chunk_warps > 0 ? options_.chunk_warps : kChunkWarps;
  const std::uint64_t chunks = std::min<std::uint64_t>((warps + per - 1) / per, kMaxChunks);
  if (chunks <= 1) return 1;
  if (!pool_) pool_ = std::make_unique<WorkerPool>(threads);
  return static_cast<std::size_t>(chunks);
}

void Engine::compute_chunk(const Compute& compute, const LaunchState& state, std::uint64_t first_warp,
                           std::uint64_t end_warp) const {
  const auto w = static_cast<std::uint64_t>(machine_.width());
  for (std::uint64_t g = first_warp; g < end_warp; ++g) {
    const std::uint64_t block = g / state.warps_per_block;
    const auto local0 = static_cast<std::uint32_t>((g % state.warps_per_block) * w);
    for (std::uint64_t i = 0; i < w; ++i)
      compute.fn(Thread(g * w + i, block, local0 + static_cast<std::uint32_t>(i), state.regs.data()));
  }
}

// One chunk of a memory round. In a write round `marks.written` marks the cells written so far, so
// that the first writer wins: with one chunk that is the lowest thread. With several chunks
// (`marks.collided` given), `written` is the running worker's own marks: a cell the worker writes
// for the first time is stored at once (a plain store: relaxed, no lock, so random stores still
// overlap), one it wrote before is marked collided; cells marked by several workers are found after
// the pass (mark_collisions), and resolve_collisions gives each collided cell its lowest writer's
// value. In a launch run in bands (`marks.shared`), `written` is one bitmap of the band's writes
// that every worker sets atomically (its lines are prefetched with the cells), so a cell some chunk
// wrote before is collided at once; a cell `marks.claimed` holds was written by an earlier band,
// a lower thread, and is left as it is.
void Engine::access_chunk(const Kernel& kernel, std::size_t step, const Access& access, LaunchState& state,
                          Chunk& chunk, const WriteMarks& marks) {
  const auto w = static_cast<std::uint64_t>(machine_.width());
  const int round = state.round_of_step[step];
  const RoundStats& rs = stats_.rounds[static_cast<std::size_t>(round)];
  const MemoryModel& model = model_of(rs.memory);
  const bool shared = rs.memory == Space::Shared;
  const auto pipes = static_cast<std::uint64_t>(chunk.pipe_slots.size());
  auto& arr = arrays_[static_cast<std::size_t>(access.array)];
  const Word* reg = state.regs[static_cast<std::size_t>(access.reg)];
  std::vector<Address> addrs(w);
  AccessContext context = context_of(access, round);
  const AddressShape shape = address_shape(access);
  // A gather or scatter through a register (a permutation's b[p[i]]) touches a random cell per
  // thread: the host would wait for each one's cache miss in turn. The cells of the warp
  // kPrefetchWarps ahead (and their marks in `written`) are asked for early, so that the misses
  // overlap; what is prefetched changes nothing but the host's caches.
  const Word* ahead =
      shape.kind == AddressShape::Kind::Register && !shared ? state.regs[static_cast<std::size_t>(shape.reg)] : nullptr;
  const std::uint64_t size = arr.decl.size;
  // A coalesced read of one cell per thread, every lane in bounds: its data move is one copy.
  const bool copy_read = shape.kind == AddressShape::Kind::ThreadIndex && access.op == Op::Read;
  for (std::uint64_t g = chunk.first_warp; g < chunk.end_warp; ++g) {
    if (ahead != nullptr && g + kPrefetchWarps < chunk.end_warp) {
      const Word* next = ahead + (g + kPrefetchWarps) * w;
      for (std::uint64_t t = 0; t < w; ++t) {
        const Word a = next[t];
        if (a >= size) continue;
        __builtin_prefetch(arr.read_cells() + a, 1);  // for a read too: the gathered line stays
        if (marks.written != nullptr) __builtin_prefetch(marks.written + a / 64, 1);
        if (marks.claimed != nullptr) __builtin_prefetch(marks.claimed + a / 64, 0);
      }
    }
    const int requests = warp_addresses(kernel, step, access, shape, g, state, addrs.data());
    context.warp = g;
    const WarpCost c = requests == 0 ? WarpCost{} : model.cost_access(addrs, context);
    detail::add_cost(chunk.counts, c, requests);
    if (c.slots == 0) continue;
    const std::uint64_t block = g / state.warps_per_block;
    if (copy_read && static_cast<std::uint64_t>(requests) == w) {
      const Word* from = arr.read_cells() + (shared ? block * size : 0) + addrs[0];
      std::copy_n(from, w, state.regs[static_cast<std::size_t>(access.reg)] + g * w);
    } else if (marks.collided == nullptr) {
      move_data(access, g, block, addrs.data(), state, marks.written);
    } else {
      const std::uint64_t base = shared ? block * arr.decl.size : 0;
      for (std::uint32_t k = 0; k < access.vector; ++k) {
        const Word* from = k == 0 ? reg : state.regs[static_cast<std::size_t>(access.reg) + k];
        for (std::uint64_t t = 0; t < w; ++t) {
          if (addrs[t] == kNoAddress) continue;
          const std::uint64_t cell = base + addrs[t] + k, bit = std::uint64_t{1} << (cell % 64);
          if (marks.claimed != nullptr && (marks.claimed[cell / 64] & bit)) continue;  // an earlier band's
          std::uint64_t& mark = marks.written[cell / 64];
          const bool first = marks.shared ? !(relaxed_or(mark, bit) & bit) : !(mark & bit);
          if (first) {
            if (!marks.shared) mark |= bit;
            relaxed_store(arr.cells[cell], from[g * w + t]);
          } else {
            relaxed_or(marks.collided[cell / 64], bit);
          }
        }
      }
    }
    const std::uint64_t p = !shared ? 0 : block % pipes;
    const auto enter = static_cast<TimeUnits>(chunk.pipe_slots[p]);
    chunk.pipe_slots[p] += static_cast<std::uint64_t>(c.slots);
    if (options_.trace)
      record_slots(chunk.trace, round, shared ? 1 + static_cast<int>(p) : 0, g, enter, model.latency(), model, context,
                   addrs);
  }
}

// Cells that two workers wrote in one round are collided too; returns whether any cell collided.
bool Engine::mark_collisions(std::size_t words, std::uint64_t* collided, std::size_t pieces) {
  std::vector<char> any(pieces, 0);
  pool_->run(pieces, [&](std::size_t c) {
    for (std::size_t i = words * c / pieces; i < words * (c + 1) / pieces; ++i) {
      std::uint64_t once = 0, twice = 0;
      for (const auto& marks : marks_) {
        twice |= once & marks[i];
        once |= marks[i];
      }
      collided[i] |= twice;
      any[c] |= collided[i] != 0;
    }
  });
  return std::find(any.begin(), any.end(), 1) != any.end();
}

// A second look at a write round in which cells were written by several threads: each chunk lists
// its lowest writer of every collided cell (its first, as it goes in thread order); the lists are
// then taken in chunk order, so each cell gets the value of its lowest writer over the round. The
// registers are those the round wrote from: a write round changes none.
void Engine::resolve_collisions(const Kernel& kernel, std::size_t step, const Access& access, LaunchState& state,
                                std::vector<Chunk>& chunks, std::uint64_t* collided) {
  const auto w = static_cast<std::uint64_t>(machine_.width());
  auto& arr = arrays_[static_cast<std::size_t>(access.array)];
  const bool shared = arr.decl.space == Space::Shared;
  const AddressShape shape = address_shape(access);
  pool_->run(chunks.size(), [&](std::size_t c) {
    Chunk& chunk = chunks[c];
    std::unordered_set<std::uint64_t> seen;
    std::vector<Address> addrs(w);
    for (std::uint64_t g = chunk.first_warp; g < chunk.end_warp; ++g) {
      if (warp_addresses(kernel, step, access, shape, g, state, addrs.data()) == 0) continue;
      const std::uint64_t base = shared ? g / state.warps_per_block * arr.decl.size : 0;
      // A thread's k-th cell of its vector takes the value of its register reg + k.
      for (std::uint64_t t = 0; t < w; ++t) {
        if (addrs[t] == kNoAddress) continue;
        for (std::uint32_t k = 0; k < access.vector; ++k) {
          const std::uint64_t cell = base + addrs[t] + k;
          if ((collided[cell / 64] >> (cell % 64) & 1) && seen.insert(cell).second)
            chunk.lowest_writers.push_back({cell, g * w + t, k});
        }
      }
    }
  });
  for (const Chunk& chunk : chunks)
    for (const auto& [cell, thread, k] : chunk.lowest_writers) {
      const std::uint64_t bit = std::uint64_t{1} << (cell % 64);
      if (!(collided[cell / 64] & bit)) continue;  // a lower chunk wrote it
      collided[cell / 64] &= ~bit;
      arr.cells[cell] = state.regs[static_cast<std::size_t>(access.reg) + k][thread];
    }
}

TimeUnits Engine::run_round_synchronous(const Kernel& kernel, LaunchState& state) {
  const auto w = static_cast<std::uint64_t>(machine_.width());
  const bool banded = state.band_warps < state.warps;
  TimeUnits total = 0;
  std::vector<std::uint64_t> written, collided;  // per cell of a write round's array, one bit
  // A launch run in bands: per write step, the cells earlier bands wrote, so that the round's lowest
  // writer still wins; per memory step, its pipelines, which take each band's slots in turn.
  std::vector<std::vector<std::uint64_t>> claimed(banded ? kernel.steps.size() : 0);
  std::vector<std::vector<Pipeline>> pipelines(kernel.steps.size());
  std::vector<Chunk> chunks;
  for (std::uint64_t first = 0; first < state.warps; first += state.band_warps) {
    const std::uint64_t end = std::min(state.warps, first + state.band_warps);
    const bool last_band = end == state.warps;
    state.start_band(first, w);
    const auto bounds = [&](std::size_t c, std::size_t n) { return first + (end - first) * c / n; };
    for (std::size_t s = 0; s < kernel.steps.size(); ++s) {
      const Step& step = kernel.steps[s];
      if (const auto* compute = std::get_if<Compute>(&step)) {
        const std::size_t n = chunks_for(end - first, true);
        if (n == 1)
          compute_chunk(*compute, state, first, end);
        else
          pool_->run(n, [&](std::size_t c) { compute_chunk(*compute, state, bounds(c, n), bounds(c + 1, n)); });
        continue;
      }
      const auto* access = std::get_if<Access>(&step);
      if (!access) continue;  // a block barrier is implied after every round
      const int round = state.round_of_step[s];
      RoundStats& rs = stats_.rounds[static_cast<std::size_t>(round)];
      const MemoryModel& model = model_of(rs.memory);
      const bool shared = rs.memory == Space::Shared;
      const int pipes = shared ? machine_.dmms : 1;
      // An atomic round runs on one thread: its updates of a cell follow warp order.
      const std::size_t n = chunks_for(end - first, model.order_free() && access->op != Op::Atomic);
      chunks.assign(n, Chunk{});
      for (std::size_t c = 0; c < n; ++c) {
        chunks[c].first_warp = bounds(c, n);
        chunks[c].end_warp = bounds(c + 1, n);
        chunks[c].counts.memory = rs.memory;
        chunks[c].pipe_slots.assign(static_cast<std::size_t>(pipes), 0);
      }
      auto& arr = arrays_[static_cast<std::size_t>(access->array)];
      const bool write = access->op == Op::Write;
      const std::size_t words = arr.cells.size() / 64 + 1;
      std::uint64_t* earlier = nullptr;  // banded: the cells earlier bands wrote in this round
      if (banded && write) {
        if (claimed[s].empty()) claimed[s].assign(words, 0);
        earlier = claimed[s].data();
      }
      if (n == 1) {
        // One chunk: its marks are the round's, over every band.
        if (write && earlier == nullptr) written.assign(words, 0);
        access_chunk(kernel, s, *access, state, chunks[0],
                     {.written = !write               ? nullptr
                                 : earlier != nullptr ? earlier
                                                      : written.data()});
      } else if (!write) {
        pool_->run(n, [&](std::size_t c) { access_chunk(kernel, s, *access, state, chunks[c], {}); });
      } else if (banded) {
        // One bitmap of the band's writes, set atomically by every worker: marks of each worker's own
        // would take workers x n / 8 bytes, at 16 threads half the size of the array written.
        written.assign(words, 0);
        collided.assign(words, 0);
        const WriteMarks marks{written.data(), collided.data(), earlier, true};
        pool_->run(n, [&](std::size_t c) { access_chunk(kernel, s, *access, state, chunks[c], marks); });
        // The band's writes join the earlier bands'; a collided cell is given its lowest writer.
        std::vector<char> any(n, 0);
        pool_->run(n, [&](std::size_t c) {
          for (std::size_t i = words * c / n; i < words * (c + 1) / n; ++i) {
            earlier[i] |= written[i];
            any[c] |= collided[i] != 0;
          }
        });
        if (std::find(any.begin(), any.end(), 1) != any.end())
          resolve_collisions(kernel, s, *access, state, chunks, collided.data());
      } else {
        // Every worker marks the cells it writes in marks of its own, cleared here in parallel.
        marks_.resize(pool_->threads());
        for (auto& m : marks_)
          if (m.size() < words) m.resize(words);
        collided.assign(words, 0);
        pool_->run(n, [&](std::size_t c) {
          for (auto& m : marks_)
            std::fill(m.begin() + static_cast<std::ptrdiff_t>(words * c / n),
                      m.begin() + static_cast<std::ptrdiff_t>(words * (c + 1) / n), 0);
        });
        pool_->run(n, [&](std::size_t c, unsigned worker) {
          access_chunk(kernel, s, *access, state, chunks[c], {marks_[worker].data(), collided.data()});
        });
        if (mark_collisions(words, collided.data(), n))
          resolve_collisions(kernel, s, *access, state, chunks, collided.data());
      }
      // Merge in warp order: each chunk's slots enter its pipelines after those of the chunks before.
      std::vector<Pipeline>& pipeline = pipelines[s];
      if (pipeline.empty()) pipeline.assign(static_cast<std::size_t>(pipes), Pipeline(model.latency()));
      std::vector<TimeUnits> offset(static_cast<std::size_t>(pipes), 0);
      const TimeUnits base = stats_.time_units + total;
      for (auto& chunk : chunks) {
        detail::add_counts(rs, chunk.counts);
        for (std::size_t p = 0; p < chunk.pipe_slots.size(); ++p)
          if (chunk.pipe_slots[p] > 0) offset[p] = pipeline[p].issue(static_cast<int>(chunk.pipe_slots[p]), 0);
        for (auto& e : chunk.trace) {
          const TimeUnits shift = base + offset[static_cast<std::size_t>(e.memory == 0 ? 0 : e.memory - 1)];
          e.enter += shift;
          e.complete += shift;
        }
        if (options_.trace_sink != nullptr && !chunk.trace.empty()) {
          // Straight from the chunk to the sink, and freed: the round's slots are never held twice.
          options_.trace_sink->consume(chunk.trace, stats_);
          std::vector<SlotEvent>().swap(chunk.trace);
        } else {
          for (auto& e : chunk.trace) trace_.push_back(std::move(e));
        }
      }
      if (!last_band) continue;
      TimeUnits t = 0;
      for (const auto& p : pipeline) t = std::max(t, p.last_completion() + 1);
      rs.time_units = t;
      total += t;
      std::vector<Pipeline>().swap(pipeline);
    }
  }
  return total;
}

}  // namespace mmsim
