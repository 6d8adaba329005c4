#include "sim/engine.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <new>
#include <queue>
#include <stdexcept>
#include <string>

#include "sim/engine_internal.h"
#include "sim/pipeline.h"
#include "sim/progress.h"
#include "sim/round_counts.h"
#include "sim/workers.h"

namespace mmsim {

namespace {

// Slots an asynchronous launch gathers before it hands them to a trace sink: a few MiB at most.
constexpr std::size_t kAsyncTraceBatch = std::size_t{1} << 15;

// Threads of a launch run in bands at once: 2^24 keeps a band's registers at 64 MiB each, and
// every launch of up to 2^24 threads in one band, run round by round as before.
constexpr std::uint64_t kBandThreads = std::uint64_t{1} << 24;

// Warp indices that are ready for one memory, with the round-robin "next after the last
// dispatched" search of docs/model.md ("Dispatch and readiness").
class ReadySet {
 public:
  explicit ReadySet(std::uint64_t warps) : bits_((warps + 63) / 64, 0), size_(warps) {}

  void insert(std::uint64_t w) {
    bits_[w / 64] |= std::uint64_t{1} << (w % 64);
    ++count_;
  }
  void erase(std::uint64_t w) {
    bits_[w / 64] &= ~(std::uint64_t{1} << (w % 64));
    --count_;
  }
  bool empty() const { return count_ == 0; }

  /// The first ready warp at or after `from`, wrapping around. Requires !empty().
  std::uint64_t next_from(std::uint64_t from) const {
    if (from >= size_) from = 0;
    if (auto w = scan(from, size_)) return *w - 1;
    return *scan(0, from) - 1;
  }

 private:
  // Returns 1 + the first set bit in [lo, hi), or 0 if none (as optional-like value).
  struct Found {
    std::uint64_t v;
    explicit operator bool() const { return v != 0; }
    std::uint64_t operator*() const { return v; }
  };
  Found scan(std::uint64_t lo, std::uint64_t hi) const {
    if (lo >= hi) return {0};
    std::uint64_t word = lo / 64;
    std::uint64_t bits = bits_[word] & (~std::uint64_t{0} << (lo % 64));
    while (true) {
      if (bits != 0) {
        const std::uint64_t pos = word * 64 + static_cast<std::uint64_t>(__builtin_ctzll(bits));
        return {pos < hi ? pos + 1 : 0};
      }
      if (++word * 64 >= hi) return {0};
      bits = bits_[word];
    }
  }

  std::vector<std::uint64_t> bits_;
  std::uint64_t size_;
  std::uint64_t count_ = 0;
};

}  // namespace

Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;

Engine::Engine(MachineView machine, EngineOptions options) : machine_(machine), options_(options) {
  if (options_.global_memory != nullptr && machine_.global != nullptr) machine_.global = options_.global_memory;
  if (machine_.global == nullptr && machine_.shared == nullptr)
    throw std::invalid_argument("machine: needs at least one memory");
  if (machine_.dmms < 1) throw std::invalid_argument("machine: k must be >= 1");
  if (machine_.global && machine_.shared && machine_.global->width() != machine_.shared->width())
    throw std::invalid_argument("machine: shared and global memory must have the same width");
}

ArrayId Engine::add_array(ArrayDecl decl) {
  if ((decl.space == Space::Shared && !machine_.shared) || (decl.space == Space::Global && !machine_.global))
    throw std::invalid_argument("array " + decl.name + ": the machine has no " + to_string(decl.space) + " memory");
  ArrayData data{std::move(decl), 0, {}};
  if (data.decl.space == Space::Global) data.cells.assign(data.decl.size, 0);
  arrays_.push_back(std::move(data));
  return static_cast<ArrayId>(arrays_.size() - 1);
}

ArrayId Engine::add_input_array(ArrayDecl decl, std::span<const Word> cells) {
  if (decl.space != Space::Global) throw std::invalid_argument("array " + decl.name + ": an input array is global");
  if (cells.size() != decl.size)
    throw std::invalid_argument("array " + decl.name + ": " + std::to_string(cells.size()) + " cells given for " +
                                std::to_string(decl.size));
  const ArrayId id = add_array({decl.name, decl.space, 0, decl.element_bytes});
  arrays_.back().decl = std::move(decl);
  arrays_.back().input = cells.data();
  return id;
}

std::span<Word> Engine::global(ArrayId id) {
  auto& a = arrays_.at(static_cast<std::size_t>(id));
  if (a.decl.space != Space::Global) throw std::logic_error(a.decl.name + " is not a global array");
  if (a.input != nullptr) throw std::logic_error(a.decl.name + " is an input array, the caller's storage");
  return a.cells;
}

std::span<Word> Engine::shared(ArrayId id, std::uint64_t block) {
  auto& a = arrays_.at(static_cast<std::size_t>(id));
  if (a.decl.space != Space::Shared) throw std::logic_error(a.decl.name + " is not a shared array");
  if (block >= a.blocks) {
    a.cells.resize((block + 1) * a.decl.size, 0);
    a.blocks = block + 1;
  }
  return std::span<Word>(a.cells).subspan(block * a.decl.size, a.decl.size);
}

const MemoryModel& Engine::model_of(Space space) const {
  return space == Space::Shared ? *machine_.shared : *machine_.global;
}

void Engine::check_kernel(const Kernel& kernel) {
  const auto w = static_cast<std::uint32_t>(machine_.width());
  if (kernel.threads_per_block == 0 || kernel.threads_per_block % w != 0)
    throw std::logic_error("kernel " + kernel.name + ": threads per block must be a positive multiple of w");
  if (kernel.registers < 1) throw std::logic_error("kernel " + kernel.name + ": needs a register");
  for (const auto& step : kernel.steps) {
    const auto* access = std::get_if<Access>(&step);
    if (!access) continue;
    if (access->array < 0 || static_cast<std::size_t>(access->array) >= arrays_.size())
      throw std::logic_error("kernel " + kernel.name + ": step " + access->name + " names no array");
    const auto fail = [&](const std::string& why) {
      throw std::logic_error("kernel " + kernel.name + ": step " + access->name + " " + why);
    };
    const bool atomic = access->op == Op::Atomic;
    if (atomic != (access->atomic != AtomicOp::None)) fail("names an atomic update without the atomic op, or back");
    if (access->vector != 1 && access->vector != 2 && access->vector != 4) fail("moves 1, 2 or 4 cells a thread");
    if (atomic && access->vector != 1) fail("is atomic and so moves one cell a thread");
    const int regs_used =
        atomic ? (access->atomic == AtomicOp::CompareAndSwap ? 2 : 1) : static_cast<int>(access->vector);
    if (access->reg < 0 || access->reg + regs_used > kernel.registers || access->result >= kernel.registers ||
        access->result < -1)
      fail("uses a missing register");
    const auto& decl = arrays_[static_cast<std::size_t>(access->array)].decl;
    if (access->op != Op::Read && arrays_[static_cast<std::size_t>(access->array)].input != nullptr)
      fail("changes the input array " + decl.name + ", which kernels only read");
    if (auto why = model_of(decl.space).refuses(context_of(*access))) fail(*why);
  }
  // Shared arrays get a copy per block of the largest grid that uses them.
  for (const auto& step : kernel.steps)
    if (const auto* access = std::get_if<Access>(&step))
      if (arrays_[static_cast<std::size_t>(access->array)].decl.space == Space::Shared)
        (void)shared(access->array, kernel.blocks - 1);
}

KernelStats Engine::launch(const Kernel& kernel) {
  const auto started = std::chrono::steady_clock::now();
  check_kernel(kernel);
  report_launch(kernel.name, kernel.threads());
  LaunchState state;
  const auto w = static_cast<std::uint64_t>(machine_.width());
  state.warps_per_block = kernel.threads_per_block / w;
  state.warps = kernel.blocks * state.warps_per_block;
  state.band_warps = state.warps;
  if (options_.execution == Execution::RoundSynchronous && runs_in_bands(kernel)) {
    const std::uint64_t band = options_.band_threads > 0 ? options_.band_threads : kBandThreads;
    // Whole blocks a band, at least one.
    state.band_warps = std::max<std::uint64_t>(1, band / kernel.threads_per_block) * state.warps_per_block;
    state.band_warps = std::min(state.band_warps, state.warps);
  }
  for (int r = 0; r < kernel.registers; ++r) {
    auto* regs = static_cast<Word*>(std::calloc(std::max<std::uint64_t>(state.band_warps * w, 1), sizeof(Word)));
    if (regs == nullptr) throw std::bad_alloc();
    state.reg_storage.emplace_back(regs);
    state.regs.push_back(regs);
  }
  state.first_round = static_cast<int>(stats_.rounds.size());
  for (const auto& step : kernel.steps) {
    if (const auto* access = std::get_if<Access>(&step)) {
      state.round_of_step.push_back(static_cast<int>(stats_.rounds.size()));
      RoundStats r;
      r.kernel = kernel.name;
      r.name = access->name;
      r.array = arrays_[static_cast<std::size_t>(access->array)].decl.name;
      r.memory = arrays_[static_cast<std::size_t>(access->array)].decl.space;
      r.op = access->op;
      stats_.rounds.push_back(std::move(r));
    } else {
      state.round_of_step.push_back(-1);
    }
  }
  const TimeUnits t = options_.execution == Execution::RoundSynchronous ? run_round_synchronous(kernel, state)
                                                                        : run_asynchronous(kernel, state);
  hand_on_trace(1);
  KernelStats ks{kernel.name, t, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()};
  stats_.kernels.push_back(ks);
  stats_.time_units += t;
  return ks;
}

bool Engine::runs_in_bands(const Kernel& kernel) const {
  if (options_.trace || machine_.global == nullptr || !model_of(Space::Global).order_free()) return false;
  // Per array: how many steps write it, and whether one reads it.
  std::vector<int> writes(arrays_.size(), 0);
  std::vector<char> read(arrays_.size(), 0);
  for (const auto& step : kernel.steps) {
    const auto* access = std::get_if<Access>(&step);
    if (access == nullptr) continue;
    const auto a = static_cast<std::size_t>(access->array);
    if (arrays_[a].decl.space != Space::Global || access->op == Op::Atomic) return false;
    if (access->op == Op::Write)
      ++writes[a];
    else
      read[a] = 1;
  }
  for (std::size_t a = 0; a < arrays_.size(); ++a)
    if (writes[a] > 1 || (writes[a] == 1 && read[a])) return false;
  return true;
}

AccessContext Engine::context_of(const Access& access, int round) const {
  return {.op = access.op,
          .array = access.array,
          .element_bytes = arrays_[static_cast<std::size_t>(access.array)].decl.element_bytes,
          .vector = access.vector,
          .atomic = access.atomic,
          .round = round};
}

Engine::AddressShape Engine::address_shape(const Access& access) {
  using Kind = AddressShape::Kind;
  if (access.vector != 1) return {};
  if (access.address.target<ThreadIndexAddress>() != nullptr) return {Kind::ThreadIndex};
  if (const auto* r = access.address.target<RegisterAddress>()) return {Kind::Register, r->reg};
  return {};
}

int Engine::warp_addresses(const Kernel& kernel, std::size_t step, const Access& access, AddressShape shape,
                           std::uint64_t warp, LaunchState& state, Address* out) const {
  const auto w = static_cast<std::uint64_t>(machine_.width());
  const std::uint64_t block = warp / state.warps_per_block;
  const auto local0 = static_cast<std::uint32_t>((warp % state.warps_per_block) * w);
  const ThreadId first = warp * w;
  const std::uint64_t size = arrays_[static_cast<std::size_t>(access.array)].decl.size;
  // The shapes the engine knows (sim/program.h) a warp at a time; a lane out of bounds falls
  // through to the general loop below, which names it.
  if (shape.kind == AddressShape::Kind::ThreadIndex && first + w <= size) {
    for (std::uint64_t t = 0; t < w; ++t) out[t] = first + t;
    return static_cast<int>(w);
  }
  if (shape.kind == AddressShape::Kind::Register) {
    const Word* reg = state.regs[static_cast<std::size_t>(shape.reg)] + first;
    Word worst = 0;
    for (std::uint64_t t = 0; t < w; ++t) {
      out[t] = reg[t];
      worst = std::max(worst, reg[t]);
    }
    if (worst < size) return static_cast<int>(w);
  }
  int active = 0;
  for (std::uint64_t t = 0; t < w; ++t) {
    const Address a =
        access.address(Thread(first + t, block, local0 + static_cast<std::uint32_t>(t), state.regs.data()));
    out[t] = a;
    if (a == kNoAddress) continue;
    ++active;
    if (a >= size || size - a < access.vector || a % access.vector != 0) [[unlikely]] {
      const auto& arr = arrays_[static_cast<std::size_t>(access.array)].decl;
      const std::string where = "kernel " + kernel.name + " step " + std::to_string(step) + " (" + access.name +
                                "): thread " + std::to_string(first + t) + " addresses " + std::to_string(a);
      if (a < size && a % access.vector != 0)
        throw std::logic_error(where + ", not a multiple of its vector of " + std::to_string(access.vector));
      throw std::logic_error(where + (access.vector > 1 ? " (a vector of " + std::to_string(access.vector) + ")" : "") +
                             " outside " + arr.name + "[" + std::to_string(arr.size) + "]");
    }
  }
  return active;
}

void Engine::move_data(const Access& access, std::uint64_t warp, std::uint64_t block, const Address* addrs,
                       LaunchState& state, std::uint64_t* written) {
  auto& arr = arrays_[static_cast<std::size_t>(access.array)];
  const bool per_block = arr.decl.space == Space::Shared;
  const std::uint64_t offset = per_block ? block * arr.decl.size : 0;
  Word* cells = arr.cells.data() + offset;  // written or updated: never an input array (check_kernel)
  Word* reg = state.regs[static_cast<std::size_t>(access.reg)];
  const auto w = static_cast<std::uint64_t>(machine_.width());
  const ThreadId first = warp * w;
  const std::uint32_t v = access.vector;
  if (access.op == Op::Atomic) {
    apply_atomics(access, first, cells, addrs, state);
  } else if (access.op == Op::Read) {
    for (std::uint32_t k = 0; k < v; ++k) {
      Word* to = state.regs[static_cast<std::size_t>(access.reg) + k];
      const Word* from = arr.read_cells() + offset;
      for (std::uint64_t t = 0; t < w; ++t)
        if (addrs[t] != kNoAddress) to[first + t] = from[addrs[t] + k];
    }
  } else if (v > 1) {
    // Vector writes: each cell of a thread's vector, the lowest thread's value landing as for one.
    const std::uint64_t base = arr.decl.space == Space::Shared ? block * arr.decl.size : 0;
    for (std::uint32_t k = 0; k < v; ++k) {
      const Word* from = state.regs[static_cast<std::size_t>(access.reg) + k];
      for (std::uint64_t i = 0; i < w; ++i) {
        const std::uint64_t t = written ? i : w - 1 - i;
        if (addrs[t] == kNoAddress) continue;
        const std::uint64_t cell = base + addrs[t] + k;
        if (written) {
          const std::uint64_t bit = std::uint64_t{1} << (cell % 64);
          if (written[cell / 64] & bit) continue;
          written[cell / 64] |= bit;
        }
        cells[addrs[t] + k] = from[first + t];
      }
    }
  } else if (written) {
    // Round-synchronous: the round's first (lowest) writer of a cell wins; later ones are dropped.
    const std::uint64_t base = arr.decl.space == Space::Shared ? block * arr.decl.size : 0;
    for (std::uint64_t t = 0; t < w; ++t) {
      if (addrs[t] == kNoAddress) continue;
      const std::uint64_t cell = base + addrs[t];
      const std::uint64_t bit = std::uint64_t{1} << (cell % 64);
      if (written[cell / 64] & bit) continue;
      written[cell / 64] |= bit;
      cells[addrs[t]] = reg[first + t];
    }
  } else {
    // Highest thread first, so that the lowest thread's value is the one that lands.
    for (std::uint64_t i = 0; i < w; ++i) {
      const std::uint64_t t = w - 1 - i;
      if (addrs[t] == kNoAddress) continue;
      cells[addrs[t]] = reg[first + t];
    }
  }
}

void Engine::apply_atomics(const Access& access, ThreadId first, Word* cells, const Address* addrs,
                           LaunchState& state) const {
  const auto w = static_cast<std::uint64_t>(machine_.width());
  const Word* operand = state.regs[static_cast<std::size_t>(access.reg)];
  const Word* swap =
      access.atomic == AtomicOp::CompareAndSwap ? state.regs[static_cast<std::size_t>(access.reg) + 1] : nullptr;
  Word* result = access.result >= 0 ? state.regs[static_cast<std::size_t>(access.result)] : nullptr;
  // Lowest thread first: the order a GPU's serialised atomics are not promised to follow, chosen so
  // that every run gives the same old values (docs/model.md, "Real accesses").
  for (std::uint64_t t = 0; t < w; ++t) {
    if (addrs[t] == kNoAddress) continue;
    Word& cell = cells[addrs[t]];
    const Word old = cell, x = operand[first + t];
    switch (access.atomic) {
      case AtomicOp::Add:
        cell = old + x;
        break;
      case AtomicOp::Min:
        cell = std::min(old, x);
        break;
      case AtomicOp::Max:
        cell = std::max(old, x);
        break;
      case AtomicOp::Exchange:
        cell = x;
        break;
      case AtomicOp::CompareAndSwap:
        cell = old == x ? swap[first + t] : old;
        break;
      case AtomicOp::Increment:
        cell = old + 1;
        break;
      case AtomicOp::None:
        break;
    }
    if (result) result[first + t] = old;
  }
}

void Engine::hand_on_trace(std::size_t batch) {
  if (options_.trace_sink == nullptr || trace_.empty() || trace_.size() < batch) return;
  options_.trace_sink->consume(trace_, stats_);
  trace_.clear();
}

void Engine::record_slots(std::vector<SlotEvent>& out, int round, int memory, std::uint64_t warp, TimeUnits first_entry,
                          int latency, const MemoryModel& model, const AccessContext& context,
                          std::span<const Address> addrs) const {
  auto parts = model.partition_access(addrs, context);
  for (std::size_t s = 0; s < parts.size(); ++s) {
    const TimeUnits enter = first_entry + static_cast<TimeUnits>(s);
    out.push_back({round, memory, warp, static_cast<int>(s), enter, enter + latency - 1, std::move(parts[s])});
  }
}

// One thread, whatever EngineOptions::threads says: every dispatch depends on the pipelines' and
// warps' state left by the one before it, across all memories, so there is no independent work to
// hand out without changing the order of events.
TimeUnits Engine::run_asynchronous(const Kernel& kernel, LaunchState& state) {
  const auto w = static_cast<std::uint64_t>(machine_.width());
  const auto k = static_cast<std::uint64_t>(machine_.dmms);
  const std::size_t memories = 1 + k;  // 0: the global memory, 1 + d: the shared memory of DMM d
  std::vector<std::size_t> pc(state.warps, 0);
  std::vector<int> active(state.warps, 0);        // requesting threads of each warp's pending access
  std::vector<Address> pending(state.warps * w);  // addresses of each warp's pending access
  std::vector<ReadySet> ready(memories, ReadySet(state.warps));
  std::vector<std::uint64_t> rr_next(memories, 0);
  std::vector<Pipeline> pipe;
  pipe.emplace_back(machine_.global ? machine_.global->latency() : 1);
  for (std::uint64_t d = 0; d < k; ++d) pipe.emplace_back(machine_.shared ? machine_.shared->latency() : 1);
  std::vector<std::uint64_t> arrived(kernel.blocks, 0);   // warps waiting at the block barrier
  std::vector<std::uint64_t> finished(kernel.blocks, 0);  // warps that ran to the end
  using Event = std::pair<TimeUnits, std::uint64_t>;      // (ready time, warp)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> in_flight;
  TimeUnits end = 0;

  // Block residency: every block from the start (the papers' HMM), or at most
  // `resident_blocks_per_dmm` per DMM, further blocks issued in index order to the DMM that frees.
  std::vector<std::uint64_t> dmm_of(kernel.blocks);
  std::uint64_t next_block = 0;
  const auto issue_block = [&](std::uint64_t b, std::uint64_t d, TimeUnits t) {
    dmm_of[b] = d;
    for (std::uint64_t j = 0; j < state.warps_per_block; ++j) in_flight.push({t, b * state.warps_per_block + j});
  };
  const std::uint64_t initial = kernel.resident_blocks_per_dmm == 0
                                    ? kernel.blocks
                                    : std::min<std::uint64_t>(kernel.blocks, kernel.resident_blocks_per_dmm * k);
  for (; next_block < initial; ++next_block) issue_block(next_block, next_block % k, 0);

  // Runs warp g from its pc at time t until it waits on memory, on a barrier, or ends.
  const auto advance = [&](std::uint64_t g, TimeUnits t) {
    const std::uint64_t block = g / state.warps_per_block;
    while (true) {
      if (pc[g] >= kernel.steps.size()) {
        end = std::max(end, t);
        if (++finished[block] == state.warps_per_block && next_block < kernel.blocks)
          issue_block(next_block++, dmm_of[block], t);
        return;
      }
      const Step& step = kernel.steps[pc[g]];
      if (const auto* compute = std::get_if<Compute>(&step)) {
        const auto local0 = static_cast<std::uint32_t>((g % state.warps_per_block) * w);
        for (std::uint64_t i = 0; i < w; ++i)
          compute->fn(Thread(g * w + i, block, local0 + static_cast<std::uint32_t>(i), state.regs.data()));
        ++pc[g];
        continue;
      }
      if (std::holds_alternative<BlockBarrier>(step)) {
        if (++arrived[block] == state.warps_per_block) {
          arrived[block] = 0;
          for (std::uint64_t j = 0; j < state.warps_per_block; ++j) {
            const std::uint64_t h = block * state.warps_per_block + j;
            ++pc[h];
            in_flight.push({t, h});
          }
        }
        return;
      }
      // A memory instruction: its addresses are fixed now (the thread's registers cannot change
      // while it waits); its cost is asked at dispatch, in dispatch order.
      const auto& access = std::get<Access>(step);
      Address* addrs = pending.data() + g * w;
      active[g] = warp_addresses(kernel, pc[g], access, address_shape(access), g, state, addrs);
      if (active[g] == 0) {
        ++pc[g];  // nothing requested: not dispatched, no wait
        continue;
      }
      const bool shared = arrays_[static_cast<std::size_t>(access.array)].decl.space == Space::Shared;
      ready[shared ? 1 + dmm_of[block] : 0].insert(g);
      return;
    }
  };

  TimeUnits t = 0;
  while (true) {
    while (!in_flight.empty() && in_flight.top().first <= t) {
      const auto g = in_flight.top().second;
      in_flight.pop();
      advance(g, t);
    }
    for (std::size_t m = 0; m < memories; ++m) {
      if (ready[m].empty() || pipe[m].next_entry() > t) continue;
      const std::uint64_t g = ready[m].next_from(rr_next[m]);
      ready[m].erase(g);
      rr_next[m] = g + 1;
      const auto& access = std::get<Access>(kernel.steps[pc[g]]);
      const int round = state.round_of_step[pc[g]];
      RoundStats& rs = stats_.rounds[static_cast<std::size_t>(round)];
      const MemoryModel& model = model_of(rs.memory);
      const std::span<const Address> addrs(pending.data() + g * w, w);
      AccessContext context = context_of(access, round);
      context.warp = g;
      const WarpCost c = model.cost_access(addrs, context);
      detail::add_cost(rs, c, active[g]);
      move_data(access, g, g / state.warps_per_block, addrs.data(), state, nullptr);
      const TimeUnits enter = pipe[m].issue(c.slots, t);
      if (options_.trace) {
        record_slots(trace_, round, static_cast<int>(m), g, stats_.time_units + enter, pipe[m].latency(), model,
                     context, addrs);
        hand_on_trace(kAsyncTraceBatch);
      }
      ++pc[g];
      in_flight.push({pipe[m].completion_of(enter + c.slots - 1) + 1, g});
    }
    TimeUnits next = -1;
    if (!in_flight.empty()) next = in_flight.top().first;
    for (std::size_t m = 0; m < memories; ++m)
      if (!ready[m].empty()) {
        const TimeUnits e = std::max(pipe[m].next_entry(), t + 1);
        next = next < 0 ? e : std::min(next, e);
      }
    if (next < 0) break;
    t = next;  // always > t: every event at t was handled above
  }
  for (std::uint64_t b = 0; b < kernel.blocks; ++b)
    if (arrived[b] != 0)
      throw std::logic_error("kernel " + kernel.name + ": a block barrier was not reached by every warp");
  return end;
}

}  // namespace mmsim
