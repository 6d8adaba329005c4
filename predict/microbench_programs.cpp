#include "predict/microbench_programs.h"

#include <stdexcept>

#include "predict/microbench_reference.h"

namespace mmsim::predict {

namespace {

constexpr std::uint32_t kThreadsPerBlock = 256;
constexpr std::uint32_t kLanes = 32;  // the GPU's warp: Shared's word index is per lane of 32
constexpr int kValue = 0, kSum = 1;   // registers

Kernel kernel_for(const Microbench& m) {
  Kernel k;
  k.name = m.name();
  const std::uint64_t threads = microbench_threads(m);
  k.threads_per_block = kThreadsPerBlock;
  k.blocks = (threads + kThreadsPerBlock - 1) / kThreadsPerBlock;
  k.registers = 2;
  return k;
}

// An address function that idles the threads past `threads`, as the kernel's `if (i < count)`.
template <typename F>
AddressFn guarded(std::uint64_t threads, F f) {
  return [threads, f](const Thread& t) -> Address { return t.id() < threads ? f(t.id()) : kNoAddress; };
}

// Shared: fill the block's words (thread t writes words t, t + 256, ...), a barrier, then `repeats`
// reads at (lane * stride + r) mod (32 * stride) summed in a register, and the sum written to b[i].
void shared_steps(const Microbench& m, Kernel& k, ArrayId s, ArrayId b) {
  for (std::uint32_t first = 0; first < kSharedWords; first += kThreadsPerBlock) {
    k.steps.push_back(Compute{[first](const Thread& t) { t.set(kValue, shared_fill(t.block(), first + t.local())); }});
    k.steps.push_back(Access{"fill s", Op::Write, s, kValue, [first](const Thread& t) -> Address {
                               const std::uint32_t word = first + t.local();
                               return word < kSharedWords ? word : kNoAddress;
                             }});
  }
  k.steps.push_back(BlockBarrier{});
  const std::uint64_t stride = m.stride, words = kLanes * stride;
  for (std::uint32_t r = 0; r < m.repeats; ++r) {
    k.steps.push_back(Access{"read s", Op::Read, s, kValue, [stride, words, r](const Thread& t) -> Address {
                               return (t.local() % kLanes * stride + r) % words;
                             }});
    k.steps.push_back(Compute{[](const Thread& t) { t.set(kSum, t.reg(kSum) + t.reg(kValue)); }});
  }
  k.steps.push_back(Access{"write b", Op::Write, b, kSum, [](const Thread& t) -> Address { return t.id(); }});
}

}  // namespace

Program microbench_program(const Microbench& m) {
  if (const char* err = microbench_error(m)) throw std::invalid_argument(std::string("microbenchmark: ") + err);
  Program p;
  if (m.kind == MicrobenchKind::Empty) {
    for (std::uint32_t i = 0; i < empty_launches(m); ++i) {
      Kernel k;
      k.name = m.name();
      k.threads_per_block = kLanes;
      p.kernels.push_back(std::move(k));
    }
    return p;
  }
  const auto global = [&](const char* name, std::uint64_t size) {
    p.arrays.push_back({name, Space::Global, size, m.element_bytes});
    return static_cast<ArrayId>(p.arrays.size() - 1);
  };
  Kernel k = kernel_for(m);
  const std::uint64_t threads = microbench_threads(m), n = m.n, stride = m.stride;
  if (m.kind == MicrobenchKind::Shared) {
    const ArrayId b = global("b", microbench_output_size(m));
    const ArrayId s = p.add_array("s", Space::Shared, kSharedWords);
    shared_steps(m, k, s, b);
    p.kernels.push_back(std::move(k));
    return p;
  }
  const ArrayId a = global("a", microbench_input_size(m));
  const ArrayId b = global("b", microbench_output_size(m));
  const auto self = [](std::uint64_t i) -> Address { return i; };
  const auto strided = [stride](std::uint64_t i) -> Address { return i * stride; };
  const auto hashed = [n](std::uint64_t i) -> Address { return scatter_hash(static_cast<std::uint32_t>(i)) % n; };
  const auto transpose = [n, stride](std::uint64_t i) -> Address { return transposed(i, n, stride); };
  // Every global kind reads a at one address and writes b at another, b[write_at(i)] = a[read_at(i)].
  const auto move = [&](auto read_at, auto write_at) {
    k.steps.push_back(Access{"read a", Op::Read, a, kValue, guarded(threads, read_at)});
    k.steps.push_back(Access{"write b", Op::Write, b, kValue, guarded(threads, write_at)});
  };
  switch (m.kind) {
    case MicrobenchKind::Copy:
      move(self, self);
      break;
    case MicrobenchKind::ReadStride:
      move(strided, self);
      break;
    case MicrobenchKind::WriteStride:
      move(self, strided);
      break;
    case MicrobenchKind::ReadRandom:
      move(hashed, self);
      break;
    case MicrobenchKind::WriteRandom:
      move(self, hashed);
      break;
    case MicrobenchKind::ReadTranspose:
      move(transpose, self);
      break;
    case MicrobenchKind::WriteTranspose:
      move(self, transpose);
      break;
    case MicrobenchKind::Empty:
    case MicrobenchKind::Shared:
      break;  // handled above
  }
  p.kernels.push_back(std::move(k));
  return p;
}

}  // namespace mmsim::predict
