#include "experiments/accesses.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <sstream>

#include "experiments/ncu_csv.h"
#include "experiments/tables.h"
#include "io/input_error.h"
#include "io/input_file.h"
#include "io/quote.h"
#include "models/gpu_memory/coalescer.h"
#include "report/csv.h"
#include "sim/engine.h"
#include "sim/random.h"
#include "teaching/tile_layout.h"

namespace mmsim::experiments {

const char* to_string(AccessInstr i) {
  switch (i) {
    case AccessInstr::Load:
      return "load";
    case AccessInstr::Store:
      return "store";
    case AccessInstr::AtomicAdd:
      return "atomic-add";
    case AccessInstr::ReduceAddOne:
      return "reduce-add-one";
    case AccessInstr::ReduceAddValue:
      return "reduce-add-value";
  }
  return "?";
}

const char* to_string(KeyDistribution d) {
  switch (d) {
    case KeyDistribution::Uniform:
      return "uniform";
    case KeyDistribution::Zipf:
      return "zipf";
    case KeyDistribution::Hot:
      return "hot";
    case KeyDistribution::OneBin:
      return "one-bin";
  }
  return "?";
}

std::uint64_t AccessCase::array_elements() const {
  std::int64_t top = 0;
  for (std::int64_t i : index)
    if (i != kIdleLane) top = std::max(top, i + static_cast<std::int64_t>(vector));
  return static_cast<std::uint64_t>(top);
}

namespace {

using Lanes = std::function<std::int64_t(std::int64_t lane)>;

// The catalogue's instructions, short, for its rows.
constexpr auto ld = AccessInstr::Load;
constexpr auto st = AccessInstr::Store;
constexpr auto at = AccessInstr::AtomicAdd;
constexpr auto r1 = AccessInstr::ReduceAddOne;
constexpr auto rv = AccessInstr::ReduceAddValue;

// Collects one space's cases, each named "<space>-<name>" (shared-u32-contiguous, global-...).
struct SpaceCases {
  Space space;
  std::vector<AccessCase> cases;

  void operator()(const std::string& name, std::string description, AccessInstr instr, std::uint32_t element_bytes,
                  std::uint32_t vector, const Lanes& lanes) {
    AccessCase c{std::string(to_string(space)) + "-" + name,
                 std::move(description),
                 space,
                 instr,
                 element_bytes,
                 vector,
                 {},
                 {}};
    for (std::uint32_t t = 0; t < kCaseLanes; ++t) c.index[t] = lanes(t);
    cases.push_back(std::move(c));
  }
};

// A 32 x 32 tile's element (row, col) under CuTe's Swizzle<B, M, S> on the element index:
// bits [M, M + B) are xored with bits [M + S, M + S + B) (teaching/tile_layout.h, the one swizzle).
std::int64_t swizzle(std::int64_t i, int b, int m, int s) { return teaching::Swizzle{b, m, s}.apply(i); }

std::vector<AccessCase> shared_cases() {
  SpaceCases add{Space::Shared, {}};
  // 32-bit words: the papers' DMM.
  add("u32-contiguous", "float s[t]", ld, 4, 1, [](auto t) { return t; });
  add("u32-stride2", "float s[2t]", ld, 4, 1, [](auto t) { return 2 * t; });
  add("u32-stride4", "float s[4t]", ld, 4, 1, [](auto t) { return 4 * t; });
  add("u32-stride32", "float s[32t]: a column of an unpadded 32 x 32 tile", ld, 4, 1, [](auto t) { return 32 * t; });
  add("u32-stride33", "float s[33t]: a column of a padded 32 x 33 tile", ld, 4, 1, [](auto t) { return 33 * t; });
  add("u32-broadcast", "float s[0] for every lane", ld, 4, 1, [](auto) { return 0; });
  add("u32-pairs", "float s[t / 2]: two lanes a word", ld, 4, 1, [](auto t) { return t / 2; });
  add("u32-two-per-bank", "float s[(t mod 2) 32 + t / 2]: two words in each of 16 banks", ld, 4, 1,
      [](auto t) { return (t % 2) * 32 + t / 2; });
  add("u32-xor-column", "a column of a 32 x 32 tile with xor swizzle s[32 t + (c ^ t)], c = 5", ld, 4, 1,
      [](auto t) { return 32 * t + (5 ^ t); });
  add("u32-cute-swizzle505-column", "column 3 of a 32 x 32 float tile under CuTe Swizzle<5,0,5>", ld, 4, 1,
      [](auto t) { return swizzle(32 * t + 3, 5, 0, 5); });
  add("u32-cute-swizzle323-column", "column 0 of a 32 x 32 float tile under CuTe Swizzle<3,2,3> (16-byte chunks)", ld,
      4, 1, [](auto t) { return swizzle(32 * t, 3, 2, 3); });
  add("u32-half-idle", "float s[2t] for lanes 0..15, lanes 16..31 idle", ld, 4, 1,
      [](auto t) { return t < 16 ? 2 * t : kIdleLane; });
  add("u32-stride32-store", "s[32t] = x: a column store of an unpadded tile", st, 4, 1, [](auto t) { return 32 * t; });
  add("u32-stride2-store", "s[2t] = x", st, 4, 1, [](auto t) { return 2 * t; });
  // 64-bit elements: double, served per half-warp.
  add("f64-contiguous", "double s[t]", ld, 8, 1, [](auto t) { return t; });
  add("f64-stride2", "double s[2t]", ld, 8, 1, [](auto t) { return 2 * t; });
  add("f64-column", "a column of an unpadded 32 x 32 double tile, s[32t]", ld, 8, 1, [](auto t) { return 32 * t; });
  add("f64-column-padded", "a column of a padded 32 x 33 double tile, s[33t]", ld, 8, 1, [](auto t) { return 33 * t; });
  add("f64-broadcast", "double s[0] for every lane", ld, 8, 1, [](auto) { return 0; });
  add("f64-pairs", "double s[t / 2]: two lanes an element", ld, 8, 1, [](auto t) { return t / 2; });
  add("f64-halves-same", "double s[t mod 16]: both half-warps read the same 16 elements", ld, 8, 1,
      [](auto t) { return t % 16; });
  add("f64-halves-cross", "double s[(t mod 16) 16 + t / 16]: a bank pair per lane pair across halves", ld, 8, 1,
      [](auto t) { return (t % 16) * 16 + t / 16; });
  add("f64-column-store", "s[32t] = x for doubles", st, 8, 1, [](auto t) { return 32 * t; });
  add("f64-contiguous-store", "s[t] = x for doubles", st, 8, 1, [](auto t) { return t; });
  add("float2-contiguous", "float2 s2[t] (a 64-bit vector of floats)", ld, 4, 2, [](auto t) { return 2 * t; });
  // How the two half-warps of a 64-bit access share wavefronts.
  add("f64-first-half", "double s[t] for lanes 0..15 only", ld, 8, 1, [](auto t) { return t < 16 ? t : kIdleLane; });
  add("f64-second-half", "double s[t - 16] for lanes 16..31 only", ld, 8, 1,
      [](auto t) { return t >= 16 ? t - 16 : kIdleLane; });
  add("f64-quads", "double s[t / 4]: four lanes an element", ld, 8, 1, [](auto t) { return t / 4; });
  add("f64-halves-same-pairs", "double s[(t mod 16) / 2]: both halves read the same 8 elements", ld, 8, 1,
      [](auto t) { return (t % 16) / 2; });
  add("f64-halves-same-quarter", "double s[t mod 4]: both halves read the same 4 elements", ld, 8, 1,
      [](auto t) { return t % 4; });
  add("f64-halves-same-banks", "double s[(t mod 16) / 2 + 16 (t >= 16)]: the halves in the same banks, other words", ld,
      8, 1, [](auto t) { return (t % 16) / 2 + (t >= 16 ? 16 : 0); });
  add("f64-parity-split", "double s[16 (t mod 2) + t / 2]: even lanes the first 128 bytes, odd the next", ld, 8, 1,
      [](auto t) { return 16 * (t % 2) + t / 2; });
  add("f64-reversed-pairs", "double s[(31 - t) / 2]", ld, 8, 1, [](auto t) { return (31 - t) / 2; });
  add("f64-pairs-last-idle", "double s[t / 2] for lanes 0..30, lane 31 idle", ld, 8, 1,
      [](auto t) { return t < 31 ? t / 2 : kIdleLane; });
  add("f64-pairs-one-split", "double s[t / 2] for lanes 0..27, s[t - 14] for lanes 28, 29, lanes 30, 31 idle", ld, 8, 1,
      [](auto t) { return t < 28   ? t / 2
                          : t < 30 ? t - 14
                                   : kIdleLane; });
  add("f64-pairs-first-half", "double s[t / 2] for lanes 0..15, s[t - 8] for lanes 16..31", ld, 8, 1,
      [](auto t) { return t < 16 ? t / 2 : t - 8; });
  // How the four quarter-warps of a 128-bit access share wavefronts.
  add("float4-one-per-quarter", "float4 s4[t / 8]: each quarter-warp reads one element", ld, 4, 4,
      [](auto t) { return 4 * (t / 8); });
  add("float4-pairs", "float4 s4[t / 2]: two lanes an element", ld, 4, 4, [](auto t) { return 4 * (t / 2); });
  add("float4-quads", "float4 s4[t / 4]: four lanes an element", ld, 4, 4, [](auto t) { return 4 * (t / 4); });
  add("float4-quarters-same-pairs", "float4 s4[(t mod 8) / 2]: every quarter reads the same 4 elements", ld, 4, 4,
      [](auto t) { return 4 * ((t % 8) / 2); });
  add("float4-halves-same", "float4 s4[t mod 16]: both half-warps read the same 16 elements", ld, 4, 4,
      [](auto t) { return 4 * (t % 16); });
  add("float4-first-quarter", "float4 s4[t] for lanes 0..7 only", ld, 4, 4,
      [](auto t) { return t < 8 ? 4 * t : kIdleLane; });
  add("float4-last-quarter", "float4 s4[t - 24] for lanes 24..31 only", ld, 4, 4,
      [](auto t) { return t >= 24 ? 4 * (t - 24) : kIdleLane; });
  add("float4-quarters-0-and-2", "float4 s4[t] for lanes 0..7 and 16..23", ld, 4, 4,
      [](auto t) { return (t / 8) % 2 == 0 ? 4 * t : kIdleLane; });
  add("float4-pairs-one-split", "float4 s4[t / 2] for lanes 0..27, s4[t - 14] for lanes 28, 29, lanes 30, 31 idle", ld,
      4, 4, [](auto t) { return t < 28   ? 4 * (t / 2)
                                : t < 30 ? 4 * (t - 14)
                                         : kIdleLane; });
  // 128-bit accesses: float4 and friends, served per quarter-warp.
  add("float4-contiguous", "float4 s4[t]", ld, 4, 4, [](auto t) { return 4 * t; });
  add("float4-stride2", "float4 s4[2t]", ld, 4, 4, [](auto t) { return 8 * t; });
  add("float4-broadcast", "float4 s4[0] for every lane", ld, 4, 4, [](auto) { return 0; });
  add("float4-column", "float4 s4[8t]: every lane in banks 0..3", ld, 4, 4, [](auto t) { return 32 * t; });
  add("float4-quarters-same", "float4 s4[t mod 8]: the four quarter-warps read the same 128 bytes", ld, 4, 4,
      [](auto t) { return 4 * (t % 8); });
  add("float4-cute-swizzle323-column", "float4 chunk 0 of each row of a 32 x 32 float tile under Swizzle<3,2,3>", ld, 4,
      4, [](auto t) { return swizzle(32 * t, 3, 2, 3); });
  add("u128-contiguous", "a 16-byte element s[t] (uint4 as one element)", ld, 16, 1, [](auto t) { return t; });
  add("float4-contiguous-store", "s4[t] = x", st, 4, 4, [](auto t) { return 4 * t; });
  add("float4-column-store", "s4[8t] = x", st, 4, 4, [](auto t) { return 32 * t; });
  // 8- and 16-bit elements, packed four or two to a bank word.
  add("u8-contiguous", "char s[t]: four lanes a word", ld, 1, 1, [](auto t) { return t; });
  add("u8-stride4", "char s[4t]: one lane a word", ld, 1, 1, [](auto t) { return 4 * t; });
  add("u8-stride128", "char s[128t]: every lane in bank 0", ld, 1, 1, [](auto t) { return 128 * t; });
  add("u8-stride129", "char s[129t]: padded", ld, 1, 1, [](auto t) { return 129 * t; });
  add("u8-contiguous-store", "s[t] = c for chars", st, 1, 1, [](auto t) { return t; });
  add("u16-contiguous", "short s[t]: two lanes a word", ld, 2, 1, [](auto t) { return t; });
  add("u16-stride64", "short s[64t]: every lane in bank 0", ld, 2, 1, [](auto t) { return 64 * t; });
  add("u16-stride2", "short s[2t]", ld, 2, 1, [](auto t) { return 2 * t; });
  add("char4-contiguous", "char4 s[t] (four chars as one 32-bit access)", ld, 1, 4, [](auto t) { return 4 * t; });
  add("short2-stride32", "short2 s[32t]: a column of 32-bit pairs", ld, 2, 2, [](auto t) { return 64 * t; });
  // Atomic adds of 32-bit words.
  add("atomic-distinct", "atomicAdd(&s[t], 1): 32 words, 32 banks", at, 4, 1, [](auto t) { return t; });
  add("atomic-same", "atomicAdd(&s[0], 1) for every lane", at, 4, 1, [](auto) { return 0; });
  add("atomic-2-words", "atomicAdd(&s[t mod 2], 1)", at, 4, 1, [](auto t) { return t % 2; });
  add("atomic-4-words", "atomicAdd(&s[t mod 4], 1)", at, 4, 1, [](auto t) { return t % 4; });
  add("atomic-8-words", "atomicAdd(&s[t mod 8], 1)", at, 4, 1, [](auto t) { return t % 8; });
  add("atomic-16-words", "atomicAdd(&s[t mod 16], 1)", at, 4, 1, [](auto t) { return t % 16; });
  add("atomic-stride32", "atomicAdd(&s[32t], 1): 32 words in bank 0", at, 4, 1, [](auto t) { return 32 * t; });
  add("atomic-2-in-bank", "atomicAdd(&s[(t mod 2) 32], 1): two words of bank 0", at, 4, 1,
      [](auto t) { return (t % 2) * 32; });
  // Atomic adds whose result is unused: of 1 (a histogram's count) and of a per-lane value.
  add("reduce-one-distinct", "atomicAdd(&s[t], 1), result unused", r1, 4, 1, [](auto t) { return t; });
  add("reduce-one-same", "atomicAdd(&s[0], 1), result unused", r1, 4, 1, [](auto) { return 0; });
  add("reduce-one-2-words", "atomicAdd(&s[t mod 2], 1), result unused", r1, 4, 1, [](auto t) { return t % 2; });
  add("reduce-one-stride32", "atomicAdd(&s[32t], 1), result unused: 32 words in bank 0", r1, 4, 1,
      [](auto t) { return 32 * t; });
  add("reduce-one-2-in-bank", "atomicAdd(&s[(t mod 2) 32], 1), result unused", r1, 4, 1,
      [](auto t) { return (t % 2) * 32; });
  add("reduce-value-same", "atomicAdd(&s[0], t), result unused", rv, 4, 1, [](auto) { return 0; });
  add("reduce-value-2-words", "atomicAdd(&s[t mod 2], t), result unused", rv, 4, 1, [](auto t) { return t % 2; });
  return add.cases;
}

std::vector<AccessCase> global_cases() {
  SpaceCases add{Space::Global, {}};
  add("u32-contiguous", "float a[t]: 128 bytes", ld, 4, 1, [](auto t) { return t; });
  add("u32-offset1", "float a[t + 1]: 128 bytes across two lines", ld, 4, 1, [](auto t) { return t + 1; });
  add("u32-stride2", "float a[2t]", ld, 4, 1, [](auto t) { return 2 * t; });
  add("u32-stride8", "float a[8t]: one sector a lane", ld, 4, 1, [](auto t) { return 8 * t; });
  add("u32-stride32", "float a[32t]: one line a lane", ld, 4, 1, [](auto t) { return 32 * t; });
  add("u32-broadcast", "float a[0] for every lane", ld, 4, 1, [](auto) { return 0; });
  add("u32-permuted", "float a[(7t) mod 32]: a permutation inside one line", ld, 4, 1,
      [](auto t) { return (7 * t) % 32; });
  add("u32-half-idle", "float a[t] for lanes 0..15", ld, 4, 1, [](auto t) { return t < 16 ? t : kIdleLane; });
  add("u8-contiguous", "char a[t]: 32 bytes", ld, 1, 1, [](auto t) { return t; });
  add("u16-contiguous", "short a[t]: 64 bytes", ld, 2, 1, [](auto t) { return t; });
  add("f64-contiguous", "double a[t]: 256 bytes", ld, 8, 1, [](auto t) { return t; });
  add("f64-stride2", "double a[2t]", ld, 8, 1, [](auto t) { return 2 * t; });
  add("float4-contiguous", "float4 a4[t]: 512 bytes", ld, 4, 4, [](auto t) { return 4 * t; });
  add("float4-stride2", "float4 a4[2t]", ld, 4, 4, [](auto t) { return 8 * t; });
  add("float2-contiguous", "float2 a2[t]: 256 bytes", ld, 4, 2, [](auto t) { return 2 * t; });
  add("u32-contiguous-store", "a[t] = x", st, 4, 1, [](auto t) { return t; });
  add("u32-stride8-store", "a[8t] = x", st, 4, 1, [](auto t) { return 8 * t; });
  add("u8-contiguous-store", "a[t] = c for chars", st, 1, 1, [](auto t) { return t; });
  add("f64-contiguous-store", "a[t] = x for doubles", st, 8, 1, [](auto t) { return t; });
  add("float4-contiguous-store", "a4[t] = x", st, 4, 4, [](auto t) { return 4 * t; });
  add("atomic-distinct", "atomicAdd(&a[t], 1)", at, 4, 1, [](auto t) { return t; });
  add("atomic-same", "atomicAdd(&a[0], 1) for every lane", at, 4, 1, [](auto) { return 0; });
  add("atomic-4-words", "atomicAdd(&a[t mod 4], 1)", at, 4, 1, [](auto t) { return t % 4; });
  add("atomic-stride8", "atomicAdd(&a[8t], 1): one sector a lane", at, 4, 1, [](auto t) { return 8 * t; });
  add("reduce-one-distinct", "atomicAdd(&a[t], 1), result unused", r1, 4, 1, [](auto t) { return t; });
  add("reduce-one-same", "atomicAdd(&a[0], 1), result unused", r1, 4, 1, [](auto) { return 0; });
  add("reduce-one-4-words", "atomicAdd(&a[t mod 4], 1), result unused", r1, 4, 1, [](auto t) { return t % 4; });
  return add.cases;
}

}  // namespace

// The layouts of a 32 x 32 float tile, each as `mmsim layout --layout TEXT` reads it (seed 1 for a
// random one): a row and a column of each, so that the GPU's wavefronts stand beside the banks and
// congestion that `mmsim layout` and `mmsim access --layout` show for the same text.
std::vector<AccessCase> layout_cases() {
  SpaceCases add{Space::Shared, {}};
  for (const auto& [slug, text] : kCaseLayouts) {
    const teaching::MatrixTile tile = teaching::parse_layout(text, static_cast<int>(kCaseLanes), 1);
    for (const bool row : {true, false}) {
      const std::uint32_t k = row ? kLayoutCaseRow : kLayoutCaseColumn;
      add(std::string("layout-") + slug + (row ? "-row" : "-column"),
          std::string(row ? "row " : "column ") + std::to_string(k) + " of a 32 x 32 float tile under " + text, ld, 4,
          1, [&](std::int64_t lane) {
            const auto t = static_cast<std::uint32_t>(lane);
            return static_cast<std::int64_t>(row ? tile.address(k, t) : tile.address(t, k));
          });
      add.cases.back().layout = text;
    }
  }
  return add.cases;
}

const std::vector<AccessCase>& access_cases() {
  static const std::vector<AccessCase> all = [] {
    std::vector<AccessCase> v = shared_cases();
    for (auto& c : global_cases()) v.push_back(std::move(c));
    // Last, so that a GPU's CSV of the catalogue before them still lines up launch by launch.
    for (auto& c : layout_cases()) v.push_back(std::move(c));
    return v;
  }();
  return all;
}

std::size_t cases_before_layouts() {
  return access_cases().size() - 2 * (sizeof kCaseLayouts / sizeof kCaseLayouts[0]);
}

const AccessCase* find_access_case(const std::string& name) {
  for (const auto& c : access_cases())
    if (c.name == name) return &c;
  return nullptr;
}

std::vector<std::uint32_t> histogram_keys(std::uint64_t n, std::uint32_t bins, KeyDistribution d, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<std::uint32_t> keys(n);
  std::vector<double> cdf;
  if (d == KeyDistribution::Zipf) {
    double sum = 0;
    for (std::uint32_t b = 0; b < bins; ++b) cdf.push_back(sum += 1.0 / (b + 1));
    for (double& c : cdf) c /= sum;
  }
  for (auto& k : keys) {
    switch (d) {
      case KeyDistribution::Uniform:
        k = static_cast<std::uint32_t>(rng.below(bins));
        break;
      case KeyDistribution::Zipf: {
        const double u = rng.uniform();
        k = static_cast<std::uint32_t>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
        k = std::min(k, bins - 1);
        break;
      }
      case KeyDistribution::Hot:
        k = rng.below(4) != 0 ? 0u : static_cast<std::uint32_t>(rng.below(bins));
        break;
      case KeyDistribution::OneBin:
        k = 0;
        break;
    }
  }
  return keys;
}

namespace {

constexpr int kW = static_cast<int>(kCaseLanes);

AtomicOp atomic_of(AccessInstr i) {
  switch (i) {
    case AccessInstr::AtomicAdd:
      return AtomicOp::Add;
    case AccessInstr::ReduceAddOne:
      return AtomicOp::Increment;
    case AccessInstr::ReduceAddValue:
      return AtomicOp::Add;
    default:
      return AtomicOp::None;
  }
}

}  // namespace

SimulatedAccess simulate_case(const AccessCase& c) {
  const bool shared = c.space == Space::Shared;
  const MachineParams params{.model = shared ? ModelKind::Dmm : ModelKind::Umm,
                             .w = kW,
                             .l = 1,
                             .L = 1,
                             .k = 1,
                             .extensions = {.widths = true, .atomics = true}};
  const Machine machine(params);
  Engine engine(machine.view());
  const ArrayId a = engine.add_array({.name = "a",
                                      .space = shared ? Space::Shared : Space::Global,
                                      .size = std::max<std::uint64_t>(c.array_elements(), 1),
                                      .element_bytes = c.element_bytes});
  const AtomicOp atomic = atomic_of(c.instr);
  const Op step_op = atomic != AtomicOp::None ? Op::Atomic : c.instr == AccessInstr::Store ? Op::Write : Op::Read;
  Access step{.name = c.name,
              .op = step_op,
              .array = a,
              .reg = 0,
              .address =
                  [&c](const Thread& t) {
                    const std::int64_t i = c.index[t.local() % kCaseLanes];
                    return i == kIdleLane ? kNoAddress : static_cast<Address>(i);
                  },
              .vector = c.vector,
              .atomic = atomic,
              .result = c.instr == AccessInstr::AtomicAdd ? 1 : -1};
  Kernel k{.name = "case", .blocks = 1, .threads_per_block = kCaseLanes, .registers = 5, .steps = {}};
  k.steps.emplace_back(std::move(step));
  engine.launch(k);
  const RoundStats& r = engine.stats().rounds.at(0);
  SimulatedAccess s{.slots = r.slots, .bank_conflicts = r.bank_conflicts, .sectors = 0};
  if (!shared) {
    std::vector<Address> warp(kCaseLanes);
    for (std::uint32_t t = 0; t < kCaseLanes; ++t)
      warp[t] = c.index[t] == kIdleLane ? kNoAddress : static_cast<Address>(c.index[t]);
    // The GPU-like memory's coalescer, the one the predictor and `mmsim access --sectors` ask.
    Coalescer coalesce(kW, 32, c.element_bytes);
    s.sectors =
        coalesce(warp,
                 {.op = step_op, .array = 0, .element_bytes = c.element_bytes, .vector = c.vector, .atomic = atomic})
            .transactions;
  }
  return s;
}

namespace {

// The sum of a launch's metrics whose names hold `part` (one per op kind: ld, st, atom, red).
double sum_of(const gpu::NcuLaunch& l, const std::string& part) {
  double s = 0;
  for (const auto& [name, value] : l.metrics)
    if (name.find(part) != std::string::npos) s += value;
  return s;
}

// The launches of an ncu CSV, in launch order.
std::vector<gpu::NcuLaunch> read_ncu(const std::string& path) {
  std::vector<gpu::NcuLaunch> out;
  for (auto& [id, l] : gpu::read_ncu_launches(path, "--ncu")) out.push_back(std::move(l));
  return out;
}

std::string yes_no(bool b) { return b ? "yes" : "NO"; }

}  // namespace

report::Table accesses_table(const std::string& ncu_csv) {
  report::Table t;
  t.title = "Real accesses: the simulator's slots beside Nsight Compute's counts, per warp instruction";
  t.header = {"machine: w = 32, 4-byte banks, widths and atomics extensions on; one warp, one instruction"};
  t.columns = {"case", "space", "instruction", "bytes_per_thread", "description", "slots", "bank_conflicts", "sectors"};
  t.parameters = {{"w", 32LL}};  // one warp of one instruction: the width is the whole machine
  const bool gpu = !ncu_csv.empty();
  std::vector<gpu::NcuLaunch> ncu;
  if (gpu) {
    ncu = read_ncu(ncu_csv);
    // A CSV made before the layout cases covers the catalogue up to them; their rows say "not run".
    if (ncu.size() != access_cases().size() && ncu.size() != cases_before_layouts())
      throw InputError("--ncu: " + quote(ncu_csv, 60) + " holds " + std::to_string(ncu.size()) +
                       " launches, the catalogue " + std::to_string(access_cases().size()) +
                       " cases (made by another mmsim?)");
    t.header.push_back("GPU: " + ncu_csv);
    for (const char* c : {"gpu_wavefronts", "gpu_bank_conflicts", "gpu_sectors", "equal"}) t.columns.push_back(c);
  }
  for (std::size_t i = 0; i < access_cases().size(); ++i) {
    const AccessCase& c = access_cases()[i];
    const SimulatedAccess s = simulate_case(c);
    const bool shared = c.space == Space::Shared;
    std::vector<report::Cell> row{c.name,
                                  std::string(to_string(c.space)),
                                  std::string(to_string(c.instr)),
                                  static_cast<long long>(c.bytes_per_lane()),
                                  c.description,
                                  static_cast<long long>(s.slots),
                                  shared ? report::Cell(static_cast<long long>(s.bank_conflicts)) : report::Cell(),
                                  shared ? report::Cell() : report::Cell(static_cast<long long>(s.sectors))};
    if (gpu && i >= ncu.size()) {
      for (int k = 0; k < 3; ++k) row.push_back(report::Cell());
      row.push_back(std::string(kNotRun));
    } else if (gpu) {
      const gpu::NcuLaunch& l = ncu[i];
      const bool kernel_shared = l.kernel.find("k_shared_instruction") != std::string::npos;
      if (kernel_shared != shared)
        throw InputError("--ncu: launch " + std::to_string(i) + " ran " + quote(l.kernel, 40) +
                         ", not the catalogue's " + c.name);
      if (shared) {
        const double inst = sum_of(l, "inst_executed_op_shared_");
        if (inst <= 0)
          throw InputError("--ncu: launch " + std::to_string(i) + " has no shared-memory instruction count");
        const double wf = sum_of(l, "wavefronts_mem_shared_op_") / inst,
                     bc = sum_of(l, "bank_conflicts_pipe_lsu_mem_shared_op_") / inst;
        row.push_back(wf);
        row.push_back(bc);
        row.push_back(report::Cell());
        row.push_back(yes_no(wf == static_cast<double>(s.slots) && bc == static_cast<double>(s.bank_conflicts)));
      } else {
        const double req = sum_of(l, "t_requests_pipe_lsu_mem_global_op_");
        if (req <= 0) throw InputError("--ncu: launch " + std::to_string(i) + " has no global request count");
        const double sectors = sum_of(l, "t_sectors_pipe_lsu_mem_global_op_") / req;
        row.push_back(report::Cell());
        row.push_back(report::Cell());
        row.push_back(sectors);
        row.push_back(yes_no(sectors == static_cast<double>(s.sectors)));
      }
    }
    t.add_row(std::move(row));
  }
  return t;
}

SimulatedHistogram simulate_histogram(const std::vector<std::uint32_t>& keys, std::uint32_t bins, bool privatized,
                                      AtomicOp atomic, const MachineParams& machine_params) {
  const Machine machine(machine_params);
  EngineOptions options;
  Engine engine(machine.view(), options);
  const auto w = static_cast<std::uint32_t>(machine_params.w);
  const std::uint32_t threads = std::max(w, (bins + w - 1) / w * w);
  const std::uint64_t n = keys.size();
  const std::uint64_t blocks = (n + threads - 1) / threads;
  const ArrayId key_array = engine.add_array({.name = "keys", .space = Space::Global, .size = n});
  const ArrayId hist = engine.add_array({.name = "hist", .space = Space::Global, .size = bins});
  std::copy(keys.begin(), keys.end(), engine.global(key_array).begin());
  // r0: the key, r1: 1 (the operand of an add), r2: a block's count of one bin, r3: old values.
  Kernel k{.name = privatized ? "histogram-shared" : "histogram-global",
           .blocks = blocks,
           .threads_per_block = threads,
           .registers = 4,
           .steps = {}};
  k.steps.emplace_back(Compute{[](const Thread& t) { t.set(1, 1); }});
  k.steps.emplace_back(
      Access{.name = "key", .op = Op::Read, .array = key_array, .reg = 0, .address = [n](const Thread& t) {
               return t.id() < n ? t.id() : kNoAddress;
             }});
  const auto own_key = [n](const Thread& t) { return t.id() < n ? static_cast<Address>(t.reg(0)) : kNoAddress; };
  const int result = atomic == AtomicOp::Increment ? -1 : 3;
  // The histogram's one atomic step, into the block's counters (privatized) or the global ones.
  const auto count = [&](ArrayId counters) {
    return Access{.name = "count",
                  .op = Op::Atomic,
                  .array = counters,
                  .reg = 1,
                  .address = own_key,
                  .vector = 1,
                  .atomic = atomic,
                  .result = result};
  };
  if (privatized) {
    const ArrayId local = engine.add_array({.name = "local", .space = Space::Shared, .size = bins});
    // Every block's counters start at 0 (r2 is 0 here) and are added into the global ones at the end.
    k.steps.emplace_back(
        Access{.name = "zero", .op = Op::Write, .array = local, .reg = 2, .address = [bins](const Thread& t) {
                 return t.local() < bins ? t.local() : kNoAddress;
               }});
    k.steps.emplace_back(BlockBarrier{});
    k.steps.emplace_back(count(local));
    k.steps.emplace_back(BlockBarrier{});
    const auto own_bin = [bins](const Thread& t) { return t.local() < bins ? t.local() : kNoAddress; };
    k.steps.emplace_back(Access{.name = "block count", .op = Op::Read, .array = local, .reg = 2, .address = own_bin});
    k.steps.emplace_back(Access{.name = "merge",
                                .op = Op::Atomic,
                                .array = hist,
                                .reg = 2,
                                .address = own_bin,
                                .vector = 1,
                                .atomic = AtomicOp::Add,
                                .result = -1});
  } else {
    k.steps.emplace_back(count(hist));
  }
  engine.launch(k);
  SimulatedHistogram h;
  h.time_units = engine.stats().time_units;
  for (const RoundStats& r : engine.stats().rounds)
    if (r.name == "count") h.atomic_slots += r.slots;
  std::vector<std::uint64_t> want(bins, 0);
  for (std::uint32_t key : keys) ++want[key];
  const auto got = engine.global(hist);
  h.correct = std::equal(want.begin(), want.end(), got.begin(), [](std::uint64_t a, Word b) { return a == b; });
  return h;
}

namespace {

// histograms-gpu.csv: (distribution, kind) -> median ms.
std::map<std::pair<std::string, std::string>, double> read_gpu_histograms(const std::string& path) {
  InputFile file("--gpu", path, std::uint64_t{1} << 20, "a histogram table may have");
  std::map<std::pair<std::string, std::string>, double> out;
  try {
    const report::CsvTable table(file.stream(), "--gpu: " + path);
    table.require({"distribution", "kind", "median_ms"});
    for (const auto& row : table.rows()) out[{row["distribution"], row["kind"]}] = row.number("median_ms");
  } catch (const report::CsvError& e) {
    throw InputError(e.what());
  }
  return out;
}

}  // namespace

report::Table histograms_table(std::uint64_t keys, std::uint64_t seed, const std::string& gpu_csv,
                               OrderAgreement* agreement) {
  constexpr std::uint32_t kBins = 256;
  // The GPU's shape: w = 32, 132 SMs; the latencies of a GPU profile's machine.
  const MachineParams machine{
      .model = ModelKind::Hmm, .w = 32, .l = 1, .L = 400, .k = 132, .extensions = {.widths = true, .atomics = true}};
  report::Table t;
  t.title = "Histograms of " + std::to_string(kBins) + " bins: simulated time beside the GPU's";
  t.header = {"keys: " + std::to_string(keys) + ", seed " + std::to_string(seed) +
              "; machine: HMM w = 32, k = 132, l = 1, L = 400, widths and atomics on, round-synchronous"};
  t.columns = {"kind", "distribution", "atomic", "time_units", "counting_slots", "correct"};
  t.parameters = with_machine({{"keys", integer_cell(keys)}, {"bins", integer_cell(kBins)}}, machine,
                              {{"seed", integer_cell(seed)}});
  std::map<std::pair<std::string, std::string>, double> gpu;
  if (!gpu_csv.empty()) {
    gpu = read_gpu_histograms(gpu_csv);
    t.header.push_back("GPU: " + gpu_csv + " (2^24 keys)");
    t.columns.push_back("gpu_median_ms");
  }
  // The GPU table's four kinds: atomicAdd(&h[k], 1) as written (an increment) and the atomic
  // instruction itself (an add whose old value is used), in global memory and privatized.
  const std::pair<const char*, std::pair<bool, AtomicOp>> kinds[] = {{"global", {false, AtomicOp::Increment}},
                                                                     {"global-atom", {false, AtomicOp::Add}},
                                                                     {"shared", {true, AtomicOp::Increment}},
                                                                     {"shared-atom", {true, AtomicOp::Add}}};
  std::size_t pairs = 0, agree = 0;
  for (const auto& [kind, how] : kinds) {
    std::vector<std::pair<TimeUnits, double>> of_kind;  // simulated, GPU (0: none)
    for (const auto d : kKeyDistributions) {
      const auto k = histogram_keys(keys, kBins, d, seed);
      const SimulatedHistogram h = simulate_histogram(k, kBins, how.first, how.second, machine);
      std::vector<report::Cell> row{std::string(kind),
                                    std::string(to_string(d)),
                                    std::string(to_string(how.second)),
                                    static_cast<long long>(h.time_units),
                                    static_cast<long long>(h.atomic_slots),
                                    yes_no(h.correct)};
      double gpu_ms = 0;
      if (!gpu.empty()) {
        const auto it = gpu.find({to_string(d), kind});
        row.push_back(it == gpu.end() ? report::Cell() : report::Cell(it->second));
        if (it != gpu.end()) gpu_ms = it->second;
      }
      of_kind.emplace_back(h.time_units, gpu_ms);
      t.add_row(std::move(row));
    }
    // The GPU's order of two distributions, where their times differ by more than 5 % (closer
    // than that, run-to-run noise may swap them), against the simulated order.
    for (std::size_t a = 0; a < of_kind.size(); ++a)
      for (std::size_t b = a + 1; b < of_kind.size(); ++b) {
        const double ga = of_kind[a].second, gb = of_kind[b].second;
        if (ga <= 0 || gb <= 0 || std::max(ga, gb) < 1.05 * std::min(ga, gb)) continue;
        ++pairs;
        agree += (ga < gb) == (of_kind[a].first < of_kind[b].first);
      }
  }
  if (agreement) *agreement = {pairs, agree};
  if (!gpu.empty())
    t.notes.push_back(
        "Of the pairs of distributions of one kind whose GPU times differ by more than 5 %, the "
        "simulation orders " +
        std::to_string(agree) + " of " + std::to_string(pairs) + " as the GPU does.");
  return t;
}

}  // namespace mmsim::experiments
