// Real accesses checked against the GPU: a catalogue of single warp instructions (shared-memory and
// global loads, stores and atomic adds of 1- to 16-byte elements and vectors, strided, padded,
// swizzled, broadcast and packed) whose slots the simulator counts and whose wavefronts, bank
// conflicts and sectors Nsight Compute counts on the GPU (`mmsim gpu accesses`), and the keys of the
// histograms that compare atomics with the GPU. One catalogue, read by both sides, so that the two
// columns of a row are the same instruction.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/machines.h"
#include "report/table.h"
#include "sim/types.h"

namespace mmsim::experiments {

/// The lanes of the warp every case is written for: the GPU's warp, the simulator's w.
inline constexpr std::uint32_t kCaseLanes = 32;
/// A lane that makes no request (its index in AccessCase::index).
inline constexpr std::int64_t kIdleLane = -1;

/// Load, store; an atomic add whose old value is used (PTX atom.add, SASS ATOMS.ADD / ATOMG.ADD);
/// an atomic add of 1 whose result is unused (PTX red.add, what a histogram's atomicAdd(&h[k], 1)
/// compiles to); an atomic add of a per-lane value whose result is unused.
enum class AccessInstr : std::uint8_t { Load, Store, AtomicAdd, ReduceAddOne, ReduceAddValue };
const char* to_string(AccessInstr i);

/// One warp instruction: lane t requests elements index[t] .. index[t] + vector - 1 of an array of
/// `element_bytes`-byte elements (byte address index[t] x element_bytes), or nothing (kIdleLane).
struct AccessCase {
  std::string name;         ///< e.g. "shared-f64-column-padded"
  std::string description;  ///< one line: what a programmer would write
  Space space = Space::Shared;
  AccessInstr instr = AccessInstr::Load;
  std::uint32_t element_bytes = 4;  ///< 1, 2, 4, 8 or 16
  std::uint32_t vector = 1;         ///< elements per lane: 1, 2 or 4 (element_bytes x vector <= 16)
  std::array<std::int64_t, kCaseLanes> index{};
  /// A layout case's layout, as `mmsim layout --layout` reads it (empty for the others).
  std::string layout;

  std::uint32_t bytes_per_lane() const { return element_bytes * vector; }
  /// Elements the array needs: one past the largest element any lane touches.
  std::uint64_t array_elements() const;
};

/// The layouts of the layout cases (slug, text): names, address expressions, CuTe layouts with and
/// without swizzles and F2 layouts of a 32 x 32 float tile (teaching/tile_layout.h reads them).
inline constexpr std::pair<const char*, const char*> kCaseLayouts[] = {
    {"raw", "raw"},
    {"pad", "pad"},
    {"xor", "xor"},
    {"rap", "rap"},
    {"cute-column-major", "(32,32):(1,32)"},
    {"cute-pad2", "(32,32):(34,1)"},
    {"cute-swizzle323", "Swizzle<3,2,3> o (32,32):(32,1)"},
    {"cute-swizzle505", "Swizzle<5,0,5> o (32,32):(32,1)"},
    {"cute-swizzle205", "Swizzle<2,0,5> o (32,32):(32,1)"},
    {"cute-nested", "((16,2),32):((66,33),1)"},
    {"expr-xor-half", "i*32 + (j ^ (i / 2))"},
    {"expr-skew", "i*32 + (i + j) % 32"},
    {"f2-xor", "f2:1,2,4,8,16,33,66,132,264,528"},
    {"f2-rank4", "f2:1,2,4,8,16,35,70,140,280,529"},
    {"f2-prefix", "f2:1,2,4,8,16,33,67,135,271,543"},
};
/// The row and the column the layout cases read.
inline constexpr std::uint32_t kLayoutCaseRow = 1, kLayoutCaseColumn = 3;
/// The "equal" cell of a case a GPU's CSV does not reach (made before the case was added).
inline constexpr const char* kNotRun = "not run";

/// Every case, shared-memory ones first, then global ones, then the layout cases (shared, last so
/// that a CSV made before them still lines up); names are unique.
const std::vector<AccessCase>& access_cases();
/// The cases before the layout cases.
std::size_t cases_before_layouts();
/// nullptr when no case has that name.
const AccessCase* find_access_case(const std::string& name);

/// The keys of the histogram comparisons (bins of a 256-bin histogram, say):
///   uniform  every bin equally likely;
///   zipf     bin b with probability proportional to 1 / (b + 1) (skewed);
///   hot      three keys in four in bin 0, the others uniform over every bin;
///   one-bin  every key in bin 0.
enum class KeyDistribution : std::uint8_t { Uniform, Zipf, Hot, OneBin };
const char* to_string(KeyDistribution d);
inline constexpr KeyDistribution kKeyDistributions[] = {KeyDistribution::Uniform, KeyDistribution::Zipf,
                                                        KeyDistribution::Hot, KeyDistribution::OneBin};

/// n keys in [0, bins) drawn with the seeded generator (sim/random.h): the same keys everywhere.
std::vector<std::uint32_t> histogram_keys(std::uint64_t n, std::uint32_t bins, KeyDistribution d, std::uint64_t seed);

/// The simulator's figures for one case: one warp making the instruction once on a machine of
/// w = 32 with both real-access extensions on. Shared memory: the DMM's slots (wavefronts) and
/// bank conflicts; global memory: the UMM's slots (128-byte address groups) and the 32-byte
/// sector transactions of the GPU-like memory's coalescer (models/gpu_memory/coalescer.h).
struct SimulatedAccess {
  std::uint64_t slots = 0, bank_conflicts = 0, sectors = 0;
};
SimulatedAccess simulate_case(const AccessCase& c);

/// Every case with its simulated figures; with `ncu` (Nsight Compute's --csv of `mmsim gpu
/// accesses --profile`, cuda/ncu_accesses.sh) the GPU's counts per instruction beside them and
/// whether the two are equal. Throws InputError naming the file and line on a CSV it cannot read
/// or whose launches do not match the catalogue.
report::Table accesses_table(const std::string& ncu_csv = {});

/// The histograms of the comparison as simulated programs: `bins` counters over `keys` with one
/// thread a key, `privatized` in each block's shared memory first (the textbook histogram) or
/// straight into global memory; `atomic` the update each key makes (Add: the atomic instruction,
/// its old value used; Increment: atomicAdd(&h[k], 1) as a histogram writes it). On `machine`
/// (an HMM; its extensions as given), round-synchronous; every count checked.
struct SimulatedHistogram {
  TimeUnits time_units = 0;
  std::uint64_t atomic_slots = 0;  ///< slots of the rounds that count the keys
  bool correct = false;
};
SimulatedHistogram simulate_histogram(const std::vector<std::uint32_t>& keys, std::uint32_t bins, bool privatized,
                                      AtomicOp atomic, const MachineParams& machine);

/// How often the simulation orders two distributions of one kind as the GPU does, over the pairs
/// whose GPU times differ by more than 5 % (closer than that, run-to-run noise may swap them).
struct OrderAgreement {
  std::size_t pairs = 0, agreeing = 0;
};

/// Each distribution and kind of the GPU's histogram table simulated (2^20 keys of 256 bins by
/// default), with the GPU's median ms beside it when `gpu_csv` (histograms-gpu.csv) is given, and
/// how the two order the distributions (a note, and `agreement` when given).
report::Table histograms_table(std::uint64_t keys, std::uint64_t seed, const std::string& gpu_csv = {},
                               OrderAgreement* agreement = nullptr);

}  // namespace mmsim::experiments
