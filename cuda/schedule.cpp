#include "cuda/schedule.h"

#include <bit>
#include <stdexcept>
#include <string>

#include "algorithms/offline/row_schedule.h"
#include "cuda/index.h"

namespace mmsim::gpu {

namespace {

void check_side(std::uint64_t side) {
  if (side < kW || side > 65536 || !std::has_single_bit(side))
    throw std::invalid_argument("sqrt(n): the GPU schedule needs a power of two from 32 to 65536");
}

BankSchedule narrow(const offline::RowSchedule& r) {
  BankSchedule b;
  b.s.assign(r.s.begin(), r.s.end());  // every entry is < side <= 65536
  b.d.assign(r.d.begin(), r.d.end());
  return b;
}

}  // namespace

OfflineSchedule offline_schedule_of(const offline::ThreeStepSchedule& t) {
  check_side(t.N);
  if (t.w != static_cast<int>(kW))
    throw std::invalid_argument("schedule: the GPU kernels need a schedule made for w = 32");
  const auto side = static_cast<std::uint32_t>(t.N);
  OfflineSchedule s;
  s.side = side;
  for (int k = 0; k < 3; ++k) {
    const offline::RowSchedule& rs = t.step[k];
    s.step[k] = offline::row_destinations(rs);  // row r's permutation: P_r(S_r(j)) = D_r(j)
    s.bank[k] = narrow(rs);
  }
  return s;
}

OfflineSchedule make_offline_schedule(const std::vector<std::uint32_t>& p, std::uint32_t side) {
  check_side(side);
  const std::uint64_t n = std::uint64_t{side} * side;
  if (p.size() != n) throw std::invalid_argument("schedule: the permutation must have sqrt(n)^2 cells");
  std::vector<std::uint8_t> seen(n, 0);
  for (std::uint64_t x = 0; x < n; ++x) {
    if (p[x] >= n || seen[p[x]]) throw std::invalid_argument("schedule: p is not a permutation");
    seen[p[x]] = 1;
  }
  offline::ScheduleTiming timing;
  OfflineSchedule s = offline_schedule_of(offline::three_step_schedule(p, static_cast<int>(kW), &timing));
  s.seconds_colouring = timing.colouring;
  s.seconds_tables = timing.tables;
  return s;
}

BankSchedule bank_schedule(const std::vector<std::uint32_t>& step, std::uint32_t side) {
  check_side(side);
  return narrow(offline::row_schedule(step, side, static_cast<int>(kW)));
}

std::uint32_t fused_rows_for(std::uint32_t side, std::uint32_t element_bytes, std::uint64_t shared_bytes) {
  return offline::fused_rows_per_block(side, element_bytes, shared_bytes);
}

std::vector<std::uint16_t> gather_schedule(const std::vector<std::uint32_t>& step, std::uint32_t side,
                                           std::uint32_t rows_per_block) {
  // Throws std::invalid_argument unless rows_per_block divides side.
  const std::vector<mmsim::Word> q = offline::fused_gather_table(step, side, rows_per_block);
  return {q.begin(), q.end()};  // every entry is < side <= 65536
}

std::vector<std::uint32_t> step_permutation(const std::vector<std::uint32_t>& step, std::uint32_t side,
                                            bool transposed) {
  const std::uint64_t n = std::uint64_t{side} * side;
  std::vector<std::uint32_t> p(n);
  for (std::uint64_t i = 0; i < side; ++i)
    for (std::uint64_t j = 0; j < side; ++j) {
      const std::uint64_t to = step[i * side + j];
      // Transposed: row i of the step is column i of the matrix.
      p[transposed ? j * side + i : i * side + j] =
          static_cast<std::uint32_t>(transposed ? to * side + i : i * side + to);
    }
  return p;
}

}  // namespace mmsim::gpu
