// KNI Sect. 5 generalised from n = 256, w = 4 to n = 2^m >= w^2, w = 2^s (transpose: any
// n = N^2 with N a multiple of w). Each block of w^2 threads moves one w x w tile:
// coalesced read -> conflict-free write of the diagonal tile -> conflict-free read -> coalesced write.
#include <bit>

#include "algorithms/closed_forms.h"
#include "algorithms/offline/common.h"
#include "algorithms/offline/kernels.h"
#include "algorithms/offline/offline.h"

namespace mmsim {

namespace {

using offline::tile_kernel;

std::uint64_t reverse_bits(std::uint64_t x, unsigned bits) {
  std::uint64_t r = 0;
  for (unsigned b = 0; b < bits; ++b) r |= ((x >> b) & 1u) << (bits - 1 - b);
  return r;
}

// The algorithm moves exactly one permutation: refuse any other.
void require_permutation(const std::string& algorithm, const Permutation& given) {
  const Permutation expected = named_permutation(algorithm, given.size(), 0);
  if (expected.p != given.p)
    throw InputError("--perm: the " + algorithm + " algorithm moves only the " + algorithm +
                     " permutation (use --perm " + algorithm + ")");
}

void check_regular(const std::string& algorithm, const MachineParams& m, const PermutationInput& in) {
  offline::check_basics(algorithm, m, in, false);
  if (algorithm == "transpose")
    offline::square_side(algorithm, in.perm->size(), m.w);
  else
    offline::power_of_two_bits(algorithm, in.perm->size(), m.w);
  require_permutation(algorithm, *in.perm);
}

// Builds the one kernel of `algorithm` over arrays a -> b through `tile`.
Kernel regular_kernel(const std::string& algorithm, std::uint64_t n, std::uint64_t w, ArrayId a, ArrayId b,
                      ArrayId tile) {
  if (algorithm == "transpose") return offline::transpose_kernel("transpose", exact_sqrt(n), w, a, b, tile);
  const auto m = static_cast<unsigned>(std::countr_zero(n));
  const auto s = static_cast<unsigned>(std::countr_zero(w));
  const std::uint64_t blocks = n / (w * w);
  using Cell = std::pair<std::uint64_t, std::uint64_t>;
  if (algorithm == "shuffle") {
    // P(u_m ... u_1) = u_{m-1} ... u_1 u_m. Block i, T(r, c) reads the u whose top bit is r's top
    // bit, next m - 2s bits are i, next s - 1 bits are r's low bits and low s bits are c: for fixed
    // r the w addresses are one aligned address group. Its destination is P(u) = i w^2 + j with
    // j = (r mod w/2) 2^(s+1) + c 2 + (r's top bit), so writing b[i w^2 + j] is coalesced, and
    // thread j reads alpha[r][c] with r = (j & 1) 2^(s-1) + j / 2^(s+1), c = (j / 2) mod w. In a
    // warp (j / w fixed) r + c ranges over R0 + C0 + (j & 1) w/2 + ((j / 2) mod w/2): w distinct
    // values mod w, so the tile read is conflict-free.
    if (s == 0) {  // w = 1: a tile is one cell
      return tile_kernel(
          "shuffle", n, w, a, b, tile, [](std::uint64_t i, std::uint64_t, std::uint64_t) -> Address { return i; },
          [](std::uint64_t) {
            return Cell{0, 0};
          },
          [=](std::uint64_t i, std::uint64_t) -> Address {
            return m == 0 ? 0 : (((i << 1) | (i >> (m - 1))) & (n - 1));
          });
    }
    const std::uint64_t half = w / 2;
    return tile_kernel(
        "shuffle", blocks, w, a, b, tile,
        [=](std::uint64_t i, std::uint64_t r, std::uint64_t c) -> Address {
          return ((r >> (s - 1)) << (m - 1)) | (i << (2 * s - 1)) | ((r & (half - 1)) << s) | c;
        },
        [=](std::uint64_t j) {
          return Cell{((j & 1) << (s - 1)) | (j >> (s + 1)), (j >> 1) & (w - 1)};
        },
        [=](std::uint64_t i, std::uint64_t j) -> Address { return i * w * w + j; });
  }
  // Bit-reversal: T(r, c) reads u = r 2^(m-s) + i 2^s + c (low s bits = c: coalesced) into
  // alpha[r][c]; thread j = (hi, lo) takes alpha[lo][hi] (diagonal hi + lo: conflict-free) and
  // writes it to rev(u) = rev_s(hi) 2^(m-s) + rev_(m-2s)(i) 2^s + rev_s(lo), whose low s bits run
  // over all of 0..w-1 in a warp (hi fixed): one address group.
  return tile_kernel(
      "bit-reversal", blocks, w, a, b, tile,
      [=](std::uint64_t i, std::uint64_t r, std::uint64_t c) -> Address { return (r << (m - s)) | (i << s) | c; },
      [=](std::uint64_t j) {
        return Cell{j % w, j / w};
      },
      [=](std::uint64_t i, std::uint64_t j) -> Address {
        return (reverse_bits(j / w, s) << (m - s)) | (reverse_bits(i, m - 2 * s) << s) | reverse_bits(j % w, s);
      });
}

RunReport run_regular(const std::string& algorithm, const Machine& machine, const PermutationInput& in,
                      const EngineOptions& opt) {
  const std::uint64_t n = in.perm->size();
  const auto& mp = machine.params();
  const auto w = static_cast<std::uint64_t>(mp.w);
  Engine engine(machine.view(), opt);
  const ArrayId a = engine.add_array({"a", Space::Global, n});
  const ArrayId b = engine.add_array({"b", Space::Global, n});
  const ArrayId tile = engine.add_array({"alpha", Space::Shared, w * w});
  offline::fill_source(engine, a);
  const Kernel k = regular_kernel(algorithm, n, w, a, b, tile);
  engine.launch(k);
  if (in.after_launch) in.after_launch(engine, k);
  RunReport run = collect(engine);
  run.correct = holds_permutation(engine.global(b), in.perm->p, opt.threads);
  const auto busiest =
      closed_form::busiest_dmm_slots(static_cast<std::int64_t>(k.blocks), k.threads_per_block, mp.w, mp.k);
  run.predicted_time_units = closed_form::regular_permutation(static_cast<std::int64_t>(n), mp.w, mp.L, mp.l, busiest);
  return run;
}

PermutationAlgorithm regular(const std::string& name, const std::string& what, const std::string& needs) {
  return {
      name,
      "in-place " + what + " through w x w diagonal tiles in shared memory (" + needs + "; --perm " + name + " only)",
      "KNI Sect. 5", [name](const MachineParams& m, const PermutationInput& in) { check_regular(name, m, in); },
      [name](const Machine& m, const PermutationInput& in, const EngineOptions& o) {
        return run_regular(name, m, in, o);
      }};
}

}  // namespace

PermutationAlgorithm transpose_algorithm() { return regular("transpose", "transpose", "n = N^2, N a multiple of w"); }
PermutationAlgorithm shuffle_algorithm() { return regular("shuffle", "shuffle", "n = 2^m >= w^2, w a power of two"); }
PermutationAlgorithm bit_reversal_algorithm() {
  return regular("bit-reversal", "bit-reversal", "n = 2^m >= w^2, w a power of two");
}

std::vector<PermutationAlgorithm> offline_algorithms() {
  return {transpose_algorithm(), shuffle_algorithm(),     bit_reversal_algorithm(),
          row_wise_algorithm(),  column_wise_algorithm(), scheduled_algorithm()};
}

}  // namespace mmsim
