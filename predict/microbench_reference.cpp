#include "predict/microbench_reference.h"

#include <vector>

namespace mmsim::predict {

std::uint64_t microbench_threads(const Microbench& m) {
  switch (m.kind) {
    case MicrobenchKind::Empty:
      return 32;
    case MicrobenchKind::ReadStride:
    case MicrobenchKind::WriteStride:
      return m.n / m.stride;
    default:
      return m.n;
  }
}

std::uint64_t microbench_input_size(const Microbench& m) {
  switch (m.kind) {
    case MicrobenchKind::Empty:
    case MicrobenchKind::Shared:
      return 0;
    case MicrobenchKind::WriteStride:
      return m.n / m.stride;
    default:
      return m.n;
  }
}

std::uint64_t microbench_output_size(const Microbench& m) {
  switch (m.kind) {
    case MicrobenchKind::Empty:
      return 0;
    case MicrobenchKind::ReadStride:
      return m.n / m.stride;
    default:
      return m.n;
  }
}

const char* microbench_error(const Microbench& m) {
  if (m.element_bytes != 4 && m.element_bytes != 8) return "element_bytes: must be 4 or 8";
  if (m.cold && (m.kind == MicrobenchKind::Empty || m.kind == MicrobenchKind::Shared))
    return "cold: only a kind of global accesses flushes the L2 before its runs";
  if (m.kind == MicrobenchKind::Empty)
    return m.repeats > kMaxEmptyLaunches ? "repeats: an empty bench makes 1 to 1024 launches" : nullptr;
  if (m.stride < 1 || m.stride > 32) return "stride: must be in [1, 32]";
  if (m.n == 0 || m.n % m.stride != 0 || m.n >= 0xFFFFFFFFu)
    return "n: must be a multiple of the stride in [1, 2^32 - 2]";
  if (m.kind == MicrobenchKind::Shared && (m.stride & (m.stride - 1)) != 0)
    return "stride: the congestion of Shared must be a power of two";
  const bool transpose_kind = m.kind == MicrobenchKind::ReadTranspose || m.kind == MicrobenchKind::WriteTranspose;
  const auto power_of_two = [](std::uint64_t x) { return (x & (x - 1)) == 0; };
  if (transpose_kind && !(power_of_two(m.stride) && power_of_two(m.n / m.stride)))
    return "stride, n: a transposed kind's stride and n / stride must be powers of two (the GPU shifts)";
  return nullptr;
}

namespace {

template <typename T>
OutputCheck check_cells(const Microbench& m, std::span<const T> b, std::uint64_t untouched) {
  const std::uint64_t mask = m.element_bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * m.element_bytes)) - 1;
  const auto value = [&](std::uint64_t v) { return v & mask; };
  const std::uint64_t s = m.stride, n = m.n;
  // WriteRandom: which cells some hash lands on.
  std::vector<bool> hit;
  if (m.kind == MicrobenchKind::WriteRandom) {
    hit.assign(n, false);
    for (std::uint64_t i = 0; i < n; ++i) hit[scatter_hash(static_cast<std::uint32_t>(i)) % n] = true;
  }
  const auto expected_ok = [&](std::uint64_t j, std::uint64_t got) -> bool {
    switch (m.kind) {
      case MicrobenchKind::Empty:
        return true;
      case MicrobenchKind::Copy:
        return got == value(microbench_source(j));
      case MicrobenchKind::ReadStride:
        return got == value(microbench_source(j * s));
      case MicrobenchKind::WriteStride:
        return got == (j % s == 0 ? value(microbench_source(j / s)) : value(untouched));
      case MicrobenchKind::ReadRandom:
        return got == value(microbench_source(scatter_hash(static_cast<std::uint32_t>(j)) % n));
      case MicrobenchKind::WriteRandom: {
        if (!hit[j]) return got == value(untouched);
        const std::uint64_t i = got - 1;  // microbench_source inverted
        return got != 0 && i < n && scatter_hash(static_cast<std::uint32_t>(i)) % n == j;
      }
      case MicrobenchKind::ReadTranspose:
        return got == value(microbench_source(transposed(j, n, s)));
      case MicrobenchKind::WriteTranspose:
        return got == value(microbench_source(transposed_from(j, n, s)));
      case MicrobenchKind::Shared: {
        const std::uint64_t block = j / 256, lane = j % 32, words = 32 * s;
        std::uint64_t sum = 0;
        for (std::uint64_t r = 0; r < m.repeats; ++r)
          sum += shared_fill(block, static_cast<std::uint32_t>((lane * s + r) % words));
        return got == value(sum);
      }
    }
    return false;
  };
  OutputCheck out;
  for (std::uint64_t j = 0; j < b.size(); ++j)
    if (!expected_ok(j, value(b[j])) && out.wrong++ == 0) out.first = j;
  if (b.size() != microbench_output_size(m)) out.wrong += 1;  // a short or long b is wrong as a whole
  return out;
}

}  // namespace

OutputCheck check_output(const Microbench& m, std::span<const std::uint32_t> b, std::uint64_t untouched) {
  return check_cells(m, b, untouched);
}
OutputCheck check_output(const Microbench& m, std::span<const std::uint64_t> b, std::uint64_t untouched) {
  return check_cells(m, b, untouched);
}

}  // namespace mmsim::predict
