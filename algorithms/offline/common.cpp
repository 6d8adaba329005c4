#include "algorithms/offline/common.h"

#include <bit>

namespace mmsim::offline {

void check_basics(const std::string& algorithm, const MachineParams& m, const PermutationInput& in,
                  bool takes_schedule) {
  if (m.model != ModelKind::Hmm) throw InputError("--model: " + algorithm + " runs on the HMM");
  if (in.perm == nullptr || in.perm->size() == 0)
    throw InputError("-n: " + algorithm + " needs a permutation of n >= 1 elements");
  if (in.schedule_file && !takes_schedule)
    throw InputError("--schedule: only the scheduled algorithms take a schedule file");
}

std::uint64_t square_side(const std::string& algorithm, std::uint64_t n, int w) {
  const std::uint64_t N = exact_sqrt(n);
  const auto W = static_cast<std::uint64_t>(w);
  if (N == 0 || N % W != 0)
    throw InputError("n: " + algorithm + " needs n = N^2 with N a multiple of w (n = " + std::to_string(n) +
                     ", w = " + std::to_string(w) + ")");
  return N;
}

unsigned power_of_two_bits(const std::string& algorithm, std::uint64_t n, int w) {
  const auto W = static_cast<std::uint64_t>(w);
  if (!std::has_single_bit(W))
    throw InputError("w: " + algorithm + " needs w a power of two (got " + std::to_string(w) + ")");
  if (!std::has_single_bit(n) || n < W * W)
    throw InputError("n: " + algorithm + " needs n a power of two with n >= w^2 (n = " + std::to_string(n) +
                     ", w = " + std::to_string(w) + ")");
  return static_cast<unsigned>(std::countr_zero(n));
}

void fill_source(Engine& engine, ArrayId a) {
  auto cells = engine.global(a);
  for (std::uint64_t i = 0; i < cells.size(); ++i) cells[i] = source_value(i);
}

}  // namespace mmsim::offline
