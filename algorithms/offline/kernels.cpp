#include "algorithms/offline/kernels.h"

#include <utility>

namespace mmsim::offline {

Kernel transpose_kernel(std::string name, std::uint64_t N, std::uint64_t w, ArrayId src, ArrayId dst, ArrayId tile) {
  const std::uint64_t tiles = N / w;  // tiles per row of the matrix
  Kernel k = tile_kernel(
      std::move(name), tiles * tiles, w, src, dst, tile,
      [=](std::uint64_t b, std::uint64_t r, std::uint64_t c) -> Address {
        return ((b / tiles) * w + r) * N + (b % tiles) * w + c;
      },
      [=](std::uint64_t j) {
        return std::pair<std::uint64_t, std::uint64_t>{j % w, j / w};
      },
      [=](std::uint64_t b, std::uint64_t j) -> Address {
        return ((b % tiles) * w + j / w) * N + (b / tiles) * w + j % w;
      });
  return k;
}

Kernel row_wise_kernel(std::string name, std::uint64_t N, ArrayId src, ArrayId dst, ArrayId s, ArrayId d, ArrayId alpha,
                       ArrayId beta) {
  constexpr int kValue = 0, kS = 1, kD = 2;
  Kernel k;
  k.name = std::move(name);
  k.blocks = N;
  k.threads_per_block = static_cast<std::uint32_t>(N);
  k.registers = 3;
  const ThreadIndexAddress cell;  // r N + j
  const auto local = [](const Thread& t) -> Address { return t.local(); };
  k.steps = {
      Access{"read a", Op::Read, src, kValue, cell},
      Access{"write alpha", Op::Write, alpha, kValue, local},
      Access{"read s", Op::Read, s, kS, cell},
      Access{"read d", Op::Read, d, kD, cell},
      BlockBarrier{},
      Access{"read alpha[S]", Op::Read, alpha, kValue, RegisterAddress{kS}},
      Access{"write beta[D]", Op::Write, beta, kValue, RegisterAddress{kD}},
      BlockBarrier{},
      Access{"read beta", Op::Read, beta, kValue, local},
      Access{"write b", Op::Write, dst, kValue, cell},
  };
  return k;
}

Kernel fused_row_kernel(std::string name, std::uint64_t N, std::uint32_t R, bool transposed, ArrayId src, ArrayId dst,
                        ArrayId q, ArrayId alpha) {
  constexpr int kValue = 0, kSource = 1;
  Kernel k;
  k.name = std::move(name);
  k.blocks = N / R;
  k.threads_per_block = static_cast<std::uint32_t>(N * R);
  k.registers = 2;
  const ThreadIndexAddress cell;  // b R N + t
  const auto local = [](const Thread& t) -> Address { return t.local(); };
  const auto gather = [=](const Thread& t) -> Address {
    const std::uint64_t rr = transposed ? t.local() % R : t.local() / N;
    return rr * N + t.reg(kSource);
  };
  const auto output = [=](const Thread& t) -> Address {
    return transposed ? (t.local() / R) * N + t.block() * R + t.local() % R : t.id();
  };
  k.steps = {
      Access{"read chunk", Op::Read, src, kValue, cell},
      Access{"write alpha", Op::Write, alpha, kValue, local},
      BlockBarrier{},
      Access{"read q", Op::Read, q, kSource, cell},
      Access{"read alpha[q]", Op::Read, alpha, kValue, gather},
      Access{"write out", Op::Write, dst, kValue, output},
  };
  return k;
}

}  // namespace mmsim::offline
