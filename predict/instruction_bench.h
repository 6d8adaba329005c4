// The instruction microbenchmarks: what a warp pays besides its memory accesses. The memory
// microbenchmarks (microbench.h) make one access per thread and little else; the algorithms that
// live in one warp's shared memory (AS's sorting, partition and permutation) make a few shared
// accesses and many compares, index computations and branches between them. These kernels time
// such work alone, on one warp of one block, each a loop of `iterations` equal bodies:
//   AluChain      x = x * A + B; x ^= x >> 13; x = x * C: one dependent chain of integer work
//   AluParallel   the same body on four independent chains: one can issue while the others wait
//   SharedChase   a = s[a]: every shared load's address is the previous load's word
//   SharedStream  independent shared loads of a fixed word through a volatile pointer, summed
//   Branchy       a = s[a], then a branch on the loaded word that half the lanes take
// Lane L's shared word is instruction_start_word(L, congestion): `congestion` lanes in each bank,
// every one at its own row, so that each warp access has exactly that congestion; the block fills
// word j with j first (the chase then stays on its word, and the loads stay dependent).
//
// Each kernel runs in two settings: `lone`, one block alone on the GPU, its loop timed in cycles by
// clock64 (a warp's latency-bound pace, as an A-S instance timed alone); and `many`, 32 one-warp
// blocks on every SM, event-timed (the SM's issue and bank throughput, as a launch of many
// instances). cuda/instructions/ runs them; Nsight Compute counts each kernel's executed warp
// instructions (cuda/ncu_instructions.sh); predict/instruction_cost.h fits the costs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mmsim::predict {

enum class InstructionKind : std::uint8_t { AluChain, AluParallel, SharedChase, SharedStream, Branchy };

/// Words of each block's shared array: 32 rows of 32 banks.
inline constexpr std::uint32_t kInstructionSharedWords = 1024;
/// Warps per SM of a `many` run (one-warp blocks): the most blocks an SM holds at once.
inline constexpr std::uint32_t kInstructionWarpsPerSm = 32;

struct InstructionBench {
  InstructionKind kind = InstructionKind::AluChain;
  std::uint32_t congestion = 1;  ///< shared kinds: lanes per bank, a power of two 1..32; ALU kinds: 1
  std::uint32_t iterations = 4096;
  bool many = false;  ///< false: one warp alone (cycles); true: kInstructionWarpsPerSm warps on every SM (ms)

  std::string name() const;  ///< e.g. "alu-chain", "shared-chase-c8"; the setting is a column of its own
  bool shared() const { return kind != InstructionKind::AluChain && kind != InstructionKind::AluParallel; }
};

/// "alu-chain", "alu-parallel", "shared-chase", "shared-stream" or "branchy".
const char* to_string(InstructionKind kind);

/// The set `mmsim gpu instructions` times: every kind alone and many, the shared kinds at
/// congestions 1, 2, 8 and 32.
std::vector<InstructionBench> instruction_benches();

/// The shared word lane `lane` uses: lanes in groups of `congestion` share bank lane / congestion,
/// each in its own row (lane mod congestion).
constexpr std::uint32_t instruction_start_word(std::uint32_t lane, std::uint32_t congestion) {
  return (lane % congestion) * 32u + lane / congestion;
}

/// One step of the ALU kinds' chain (a multiply-xorshift mix): both the kernels and the host's
/// reference run it.
constexpr std::uint32_t instruction_alu_step(std::uint32_t x) {
  x = x * 0x9E3779B1u + 0x7F4A7C15u;
  x ^= x >> 13;
  return x * 0x85EBCA77u;
}

/// One step of Branchy after its load of `a`: the branch on the word and the lane.
constexpr std::uint32_t instruction_branch_step(std::uint32_t y, std::uint32_t a, std::uint32_t lane) {
  if ((a ^ (a >> 5) ^ (lane >> 1)) & 1u) {
    y = y * 3u + a;
    return y ^ (y >> 7);
  }
  return (y ^ a) * 5u;
}

/// What lane `lane` of any block writes when the bench's loop ends (its checked output).
std::uint32_t instruction_reference(const InstructionBench& b, std::uint32_t lane);

/// What the DMM (w = 32) makes of one warp's shared accesses in the bench: its warp accesses, and
/// the extra slots beyond one per access (the sum of congestion - 1, models/congestion.h).
struct SharedSteps {
  double steps = 0;
  double extra_slots = 0;
};
SharedSteps simulated_shared_steps(const InstructionBench& b);

/// The copy microbenchmarks: what a few warps per SM pay to stage their data through shared memory
/// (the load before and the store after an A-S instance's work, cuda/harness/warp_copy.cuh). Blocks
/// of one warp, `warps_per_sm` of them on every SM, each copies its own `rows` rows of 32 words from
/// global memory into shared memory and back out, word x by lane x mod 32; event-timed. A warp
/// alone is bound by how many of its loads are in flight against their latency; many warps by the
/// SM's and the L2's throughput (predict/copy_cost.h fits both).
struct CopyBench {
  std::uint32_t rows = 1;
  std::uint32_t warps_per_sm = 1;
  std::string name() const;  ///< e.g. "copy-r24-w4"
  std::uint64_t shared_bytes() const { return std::uint64_t{rows} * 32 * 4; }
};

/// The set `mmsim gpu instructions` times: rows 6, 24, 96, 384 and 1000 at 1 to 32 warps per SM,
/// none of them an A-S instance's row count (powers of two); an SM's warps hold at most 1000 rows
/// (on 132 SMs 17 MB in and as much out, as the largest A-S launch: the L2 holds the input warm
/// from one timed launch to the next in both).
std::vector<CopyBench> copy_benches();

/// Word `i` of a copy bench's input (a mix of i, so that no word equals its neighbour).
constexpr std::uint32_t copy_input_word(std::uint64_t i) {
  return instruction_alu_step(static_cast<std::uint32_t>(i) ^ static_cast<std::uint32_t>(i >> 32));
}

/// The tile microbenchmarks: how many loads an SM keeps in flight in a kernel that reads a tile,
/// waits at a barrier and writes it (the shape of the tiled transposes, BMMC's tile kernels and the
/// fused permutation), which the memory microbenchmarks (one access per thread, no barrier) do not
/// show. Blocks of kTileThreads threads; each thread loads `loads` words of its block's tile
/// (independent loads, coalesced), stores them into shared memory, waits at __syncthreads(), and
/// stores its neighbour's (thread ^ 1) words back to the same places of the output, which is a
/// second array or, `in_place`, the array read. Dynamic shared memory leaves exactly
/// `blocks_per_sm` blocks resident on an SM; the arrays hold `mib` MiB each (within the L2 and
/// beyond it). Event-timed, every output checked.
inline constexpr std::uint32_t kTileThreads = 256;

struct TileBench {
  std::uint32_t loads = 1;          ///< words a thread loads before the barrier: 1, 2, 4 or 8
  std::uint32_t blocks_per_sm = 8;  ///< blocks resident on an SM at once: 1 to 2048 / threads
  std::uint32_t mib = 16;           ///< MiB of the array read (and of the one written)
  bool in_place = false;
  std::uint32_t threads = kTileThreads;  ///< a block's: kTileThreads, or 1024 as BMMC's largest tiles
  /// e.g. "tile-k4-b2-m16", "tile-k4-b2-m16-in-place", "tile-k4-b1-m16-t1024" (threads named when
  /// not kTileThreads)
  std::string name() const;
  std::uint64_t words() const { return std::uint64_t{mib} << 18; }
  std::uint64_t tile_words() const { return std::uint64_t{threads} * loads; }
  std::uint64_t blocks() const { return words() / tile_words(); }
};

/// The set `mmsim gpu instructions` times: loads 1, 2, 4, 8 x blocks per SM 1, 2, 4, 8 x 4, 12,
/// 128 and 256 MiB (two sizes within the L2, two beyond it) x out of place and in place, in blocks
/// of kTileThreads threads; and the same with blocks of 1024 threads, 1 or 2 an SM.
std::vector<TileBench> tile_benches();

/// What a tile bench writes at word i of its output, given its input (word i of the input is
/// copy_input_word(i)): the word of the neighbouring thread (i ^ 1) of the same tile row.
constexpr std::uint32_t tile_output_word(std::uint64_t i) { return copy_input_word(i ^ 1u); }

/// The stream microbenchmarks: held out from every fit, they check the instruction term on a
/// kernel of one's own (docs/your-kernel.md, "Instructions"). One thread an element, blocks of
/// kStreamThreads, over `n` elements: each thread loads x, evaluates the polynomial of degree
/// `steps` whose coefficients are 0, 1, ..., steps - 1 by Horner's rule (stream_step, a multiply-add
/// a degree), and stores it. Few steps leave the kernel bound by its memory, many by its issue;
/// 2^22 elements stay in the L2, 2^25 do not. With a `shared_stride`, each thread first stores x
/// into its block's shared array at its own word, waits at a barrier, and takes the x of word
/// stream_shared_word(local, stride) instead: stride 1 its own (no conflict), stride 8 a transposed
/// 32 x 8 grid (8 lanes of a warp in each of 4 banks: congestion 8). Event-timed, every output
/// checked.
inline constexpr std::uint32_t kStreamThreads = 256;

struct StreamBench {
  std::uint32_t steps = 0;
  std::uint32_t log2_n = 22;
  std::uint32_t shared_stride = 0;  ///< 0: no shared step; else 1 or 8 (a divisor of kStreamThreads)
  std::string name() const;         ///< e.g. "stream-s64-n22", "stream-s64-n22-shared8"
  std::uint64_t n() const { return std::uint64_t{1} << log2_n; }
};

/// The set `mmsim gpu instructions` times: steps 0, 8, 16, 32, 64, 128, 256 and 1024 at n = 2^22
/// and 2^25; then steps 0, 16, 64 and 256 through shared memory at strides 1 and 8, n = 2^22.
std::vector<StreamBench> stream_benches();

/// The shared word a stream bench's thread `local` reads at `stride` (a divisor of kStreamThreads):
/// the words as a grid of kStreamThreads / stride rows of `stride`, read down its columns.
constexpr std::uint32_t stream_shared_word(std::uint32_t local, std::uint32_t stride) {
  const std::uint32_t rows = kStreamThreads / stride;
  return (local % rows) * stride + local / rows;
}

/// The input element whose polynomial element i of a stream bench's output holds.
constexpr std::uint64_t stream_source(const StreamBench& b, std::uint64_t i) {
  if (b.shared_stride == 0) return i;
  return i - i % kStreamThreads + stream_shared_word(static_cast<std::uint32_t>(i % kStreamThreads), b.shared_stride);
}

/// Element i of a stream bench's input: i mod 4096, so that the host checks every output from 4096
/// references.
constexpr std::uint32_t stream_input(std::uint64_t i) { return static_cast<std::uint32_t>(i % 4096); }

/// One degree of Horner's rule: y * x + c, on 32-bit words.
constexpr std::uint32_t stream_step(std::uint32_t y, std::uint32_t x, std::uint32_t c) { return y * x + c; }

/// What a stream bench writes for input x: stream_step over c = 0 .. steps - 1 from y = 0.
constexpr std::uint32_t stream_output(std::uint32_t x, std::uint32_t steps) {
  std::uint32_t y = 0;
  for (std::uint32_t c = 0; c < steps; ++c) y = stream_step(y, x, c);
  return y;
}

}  // namespace mmsim::predict
