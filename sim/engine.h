// Folder sim/ (target mmsim::sim): the engine. It owns the vocabulary of a run (addresses, words,
// time units, threads), programs as kernels of per-thread steps over named arrays, the one
// interface a memory model implements (memory_model.h), the pipelines, round-robin dispatch,
// round-synchronous and asynchronous execution, statistics, traces and the seeded generator.
// It may include the standard library only; every other folder builds on it.
//
// The discrete-event engine: runs SIMT kernels on a machine of pipelined memories (docs/model.md).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "sim/huge_pages.h"
#include "sim/memory_model.h"
#include "sim/program.h"
#include "sim/stats.h"
#include "sim/trace_sink.h"

namespace mmsim {

/// The memories of a machine, as the engine sees them. A DMM has only `shared` (one DMM), a UMM
/// only `global`, the HMM both with `dmms` = k DMMs, each with its own shared-memory pipeline.
struct MachineView {
  const MemoryModel* global = nullptr;
  const MemoryModel* shared = nullptr;
  int dmms = 1;

  int width() const { return global ? global->width() : shared->width(); }
};

enum class Execution : std::uint8_t {
  RoundSynchronous,  ///< a barrier over all threads after every memory instruction (the papers)
  Asynchronous,      ///< barriers only where the kernel has them, and between kernels
};

struct EngineOptions {
  Execution execution = Execution::RoundSynchronous;
  bool trace = false;  ///< record every slot's entry and completion
  /// With `trace`: where the slots go as they are produced (sim/trace_sink.h), so that a large
  /// run's trace never sits whole in memory; trace() then stays empty. Null: trace() keeps them.
  TraceSink* trace_sink = nullptr;
  /// Host threads for round-synchronous rounds; 0: every core (sim/workers.h, hardware_threads()).
  /// Every result is the same for every value; asynchronous execution runs on one thread.
  unsigned threads = 0;
  /// Warps per unit of parallel work in a round; 0: the engine's choice (512). Tests set it small
  /// so that small programs are split as large ones are.
  std::uint64_t chunk_warps = 0;
  /// Threads a round-synchronous launch runs at once through all its steps when its threads share
  /// nothing (see "bands" in Engine's contract); 0: the engine's choice (2^24). Tests set it small.
  std::uint64_t band_threads = 0;
  /// Replaces the machine's global memory model for this engine (a machine without one keeps
  /// none): how a run of any algorithm is costed on an extended memory (models/gpu_memory, for
  /// `mmsim predict`) without the algorithm knowing. The model must outlive the engine.
  const MemoryModel* global_memory = nullptr;
};

class WorkerPool;

/// Holds the memories' contents and runs kernels on them one launch at a time, so that a host-side
/// driver may look at the data between launches (as a CUDA host program does).
///
/// Contract:
///  - block b of a kernel runs on DMM (b mod k) and owns its own copy of every shared array (with
///    Kernel::resident_blocks_per_dmm in asynchronous execution, blocks beyond the first ones are
///    issued in index order to the DMM that frees a place);
///  - the memory model's cost of a warp access is asked when the warp is dispatched, in dispatch
///    order, so a model may keep state (a TLB, say); a model that keeps none says so
///    (MemoryModel::order_free) and may then be asked from several threads (see threads below);
///  - warp g = threads [g w, (g + 1) w) of the launch; a warp's requests are costed by the memory
///    model once per instruction; the warp occupies that many consecutive slots of the memory's
///    single pipeline; warps are dispatched round-robin in warp order among those ready;
///  - a warp is ready for its next instruction only when all its previous requests completed;
///  - reads take the cell's value when the warp is dispatched; when threads of one warp write one
///    address, the lowest thread's value lands; in round-synchronous execution the same holds over
///    the whole round (in asynchronous execution warps of one instruction are not ordered, so the
///    last dispatched write lands: a race the algorithm must avoid with a barrier);
///  - an address outside its array is an algorithm bug: launch() throws std::logic_error (in a
///    round-synchronous round, the error of the lowest warp with a bad address);
///  - threads (EngineOptions::threads): a round-synchronous round's warps are split into chunks of
///    consecutive warps, run on several host threads; each chunk computes its warps' addresses,
///    costs, statistics, data movement and trace on its own, and the chunks are merged in warp
///    order: slot counts are issued to each pipeline (global, or DMM d) chunk after chunk, so the
///    round's time and every slot's entry are those of the one-thread run; a read takes the value
///    the cell held at the round's start (no write happens in a read round); a cell written by
///    several threads keeps the lowest one's value (each worker marks the cells it writes; a second
///    pass over the round, made only when some cell was written twice, finds each such cell's
///    lowest writer). So time units, statistics, memory contents and traces are identical for
///    every number of threads.
///    What this asks of a program: an Access's address function and a Compute function depend
///    only on the thread and its own registers (and data no thread changes), and a Compute writes
///    only its thread's registers or places no other thread touches; every kernel of mmsim's
///    families is so. A memory model that keeps state (MemoryModel::order_free() false, a TLB)
///    must see warps in dispatch order: rounds on it run on one thread. Asynchronous execution
///    runs on one thread: its dispatch is one event sequence over all memories.
///  - bands: a round-synchronous launch larger than EngineOptions::band_threads whose threads share
///    nothing within it (global arrays only, no atomic update, every array it writes written by one
///    step and read by none, an order-free global memory, no trace) runs a band of consecutive
///    blocks at a time through all its steps, so that its registers are held for one band only (a
///    2^28-thread launch needs no gigabytes of them). Each round's slots are still issued in warp
///    order and the lowest writer of a cell still wins over the whole round, so time units,
///    statistics and memory contents are those of a launch run round by round; the one difference
///    is which bad address is named when a launch has several (the first band's, not the first
///    round's).
///  - an input array (add_input_array) is the caller's storage, read in place and never copied:
///    a kernel that writes it is refused, and global() does not hand it out.
class Engine {
 public:
  Engine(MachineView machine, EngineOptions options = {});
  ~Engine();
  Engine(Engine&&) noexcept;

  ArrayId add_array(ArrayDecl decl);
  /// A global array that kernels only read, held by the caller (a permutation the size of the
  /// run, say): its `cells` (decl.size of them) must stay alive and unchanged while kernels run.
  ArrayId add_input_array(ArrayDecl decl, std::span<const Word> cells);
  const ArrayDecl& array(ArrayId id) const { return arrays_.at(static_cast<std::size_t>(id)).decl; }

  /// Host view of a global array.
  std::span<Word> global(ArrayId id);
  /// Host view of block `block`'s copy of a shared array (allocated for the largest grid so far).
  std::span<Word> shared(ArrayId id, std::uint64_t block);

  /// Runs one kernel to completion (then a grid barrier) and returns its time.
  KernelStats launch(const Kernel& kernel);

  const RunStats& stats() const { return stats_; }
  /// Every slot so far, when tracing without a sink.
  const std::vector<SlotEvent>& trace() const { return trace_; }
  const MachineView& machine() const { return machine_; }

 private:
  struct ArrayData {
    ArrayDecl decl;
    std::uint64_t blocks = 0;                          // shared arrays: copies allocated
    std::vector<Word, HugePageAllocator<Word>> cells;  // gathered and scattered at random: huge pages
    const Word* input = nullptr;                       // an input array's cells (then `cells` is empty)

    const Word* read_cells() const { return input != nullptr ? input : cells.data(); }
  };
  struct LaunchState;
  struct Chunk;
  struct WriteMarks;

  void check_kernel(const Kernel& kernel);
  // Whether a round-synchronous launch of `kernel` may run in bands (see the contract).
  bool runs_in_bands(const Kernel& kernel) const;
  TimeUnits run_round_synchronous(const Kernel& kernel, LaunchState& state);
  TimeUnits run_asynchronous(const Kernel& kernel, LaunchState& state);
  // Round-synchronous parts (sim/engine_rounds.cpp): how many chunks a round of `warps` warps gets,
  // and one chunk's work on a compute step or a memory round.
  std::size_t chunks_for(std::uint64_t warps, bool order_free);
  void compute_chunk(const Compute& compute, const LaunchState& state, std::uint64_t first_warp,
                     std::uint64_t end_warp) const;
  void access_chunk(const Kernel& kernel, std::size_t step, const Access& access, LaunchState& state, Chunk& chunk,
                    const WriteMarks& marks);
  bool mark_collisions(std::size_t words, std::uint64_t* collided, std::size_t pieces);
  void resolve_collisions(const Kernel& kernel, std::size_t step, const Access& access, LaunchState& state,
                          std::vector<Chunk>& chunks, std::uint64_t* collided);

  // How an access's addresses are made: a shape the engine evaluates a warp at a time (sim/program.h),
  // or one call per thread. Found once per round: asking the std::function per warp costs a type
  // comparison each time.
  struct AddressShape {
    enum class Kind : std::uint8_t { ThreadIndex, Register, PerThread } kind = Kind::PerThread;
    int reg = 0;  // Register: the register that holds each thread's address
  };
  static AddressShape address_shape(const Access& access);
  // Computes the warp's addresses for `access` (of shape `shape`), checking them against the array's
  // bounds; returns how many threads request.
  int warp_addresses(const Kernel& kernel, std::size_t step, const Access& access, AddressShape shape,
                     std::uint64_t warp, LaunchState& state, Address* out) const;
  // Moves the data of one warp's access between memory and registers. `written` (round-synchronous
  // writes) marks the cells written earlier in the round, so that the lowest thread wins.
  void move_data(const Access& access, std::uint64_t warp, std::uint64_t block, const Address* addrs,
                 LaunchState& state, std::uint64_t* written);
  void record_slots(std::vector<SlotEvent>& out, int round, int memory, std::uint64_t warp, TimeUnits first_entry,
                    int latency, const MemoryModel& model, const AccessContext& context,
                    std::span<const Address> addrs) const;
  // What the memory model is told of an instruction besides its addresses.
  AccessContext context_of(const Access& access, int round = -1) const;
  // An atomic instruction's updates for one warp, thread after thread, lowest first.
  void apply_atomics(const Access& access, ThreadId first, Word* cells, const Address* addrs, LaunchState& state) const;
  const MemoryModel& model_of(Space space) const;
  // With a trace sink: hands the slots recorded so far on to it once there are at least `batch`.
  void hand_on_trace(std::size_t batch);

  MachineView machine_;
  EngineOptions options_;
  std::vector<ArrayData> arrays_;
  RunStats stats_;
  std::vector<SlotEvent> trace_;
  std::unique_ptr<WorkerPool> pool_;               // started at the first round that is split
  std::vector<std::vector<std::uint64_t>> marks_;  // per worker: cells it wrote in a split write round
};

}  // namespace mmsim
