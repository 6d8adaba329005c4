// A trace file made on the host, as include/mmsim/trace.cuh writes one (docs/traced-runs.md): the
// tests' and the fuzz seeds' way to a trace without a GPU. Each access gives every lane's element
// index (-1: the lane takes no part); the record takes the base-and-stride form when the active
// lanes fit one, as the device does, else the 32-index form.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mmsim::test {

class TraceBytes {
 public:
  enum Op : std::uint8_t { Read, Write, AtomicAdd, AtomicMin, AtomicMax, AtomicExch, AtomicCas, AtomicInc, Barrier };
  using Lanes = std::array<std::int64_t, 32>;

  std::uint32_t sms = 4;
  std::uint64_t dropped = 0;
  std::vector<std::string> files{"kernel.cu"};

  int array(const std::string& name, bool shared, std::uint64_t elements, std::uint8_t element_bytes = 4) {
    tables_ += text(name);
    tables_.push_back(shared ? 1 : 0);
    tables_.push_back(static_cast<char>(element_bytes));
    tables_.append(2, '\0');
    put(tables_, elements, 8);
    return arrays_++;
  }
  int kernel(const std::string& name, std::uint32_t blocks, std::uint32_t threads_per_block) {
    kernels_ += text(name);
    put(kernels_, blocks, 4);
    put(kernels_, threads_per_block, 4);
    return kernel_count_++;
  }
  void access(int kernel, std::uint32_t block, std::uint16_t warp, std::uint32_t line, Op op, int array,
              std::uint8_t size, const Lanes& index, std::uint32_t file = 0) {
    std::uint32_t mask = 0;
    int leader = -1, second = -1;
    for (int l = 0; l < 32; ++l)
      if (index[l] >= 0) {
        mask |= 1u << l;
        if (leader < 0)
          leader = l;
        else if (second < 0)
          second = l;
      }
    const std::int64_t stride = second >= 0 ? (index[second] - index[leader]) / (second - leader) : 0;
    bool affine = op != Barrier;
    for (int l = 0; l < 32 && affine; ++l)
      if (index[l] >= 0 && index[l] != index[leader] + (l - leader) * stride) affine = false;
    head(file, line, block, op == Barrier ? lanes_of(index) : mask, warp, op, op == Barrier ? 0 : array, kernel,
         op == Barrier ? 0
         : affine      ? 1
                       : 2,
         op == Barrier ? 0 : size);
    if (op == Barrier) return;
    if (affine) {
      put(records_, static_cast<std::uint64_t>(index[leader] - leader * stride), 8);
      put(records_, static_cast<std::uint64_t>(stride), 8);
    } else {
      for (int l = 0; l < 32; ++l) put(records_, index[l] >= 0 ? static_cast<std::uint64_t>(index[l]) : 0xFFFFFFFFu, 4);
    }
  }
  void barrier(int kernel, std::uint32_t block, std::uint16_t warp, std::uint32_t line) {
    Lanes all;
    all.fill(0);
    access(kernel, block, warp, line, Barrier, 0, 0, all);
  }
  /// Lanes first + l x stride for l in [0, 32) where active (bit l of mask).
  static Lanes affine_lanes(std::int64_t first, std::int64_t stride, std::uint32_t mask = 0xFFFFFFFFu) {
    Lanes a;
    for (int l = 0; l < 32; ++l) a[l] = mask >> l & 1u ? first + l * stride : -1;
    return a;
  }

  std::string bytes() const {
    std::string b = "MMSIMTRC";
    put(b, 1, 4);
    put(b, 32, 4);
    put(b, sms, 4);
    put(b, files.size(), 4);
    put(b, static_cast<std::uint64_t>(arrays_), 4);
    put(b, static_cast<std::uint64_t>(kernel_count_), 4);
    put(b, records_count_, 8);
    put(b, dropped, 8);
    put(b, records_.size(), 8);
    b += text("Host emulation");
    for (const auto& f : files) b += text(f);
    return b + tables_ + kernels_ + records_;
  }

 private:
  static void put(std::string& b, std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b.push_back(static_cast<char>(v >> (8 * i) & 0xFF));
  }
  static std::string text(const std::string& s) {
    std::string b;
    put(b, s.size(), 2);
    return b + s;
  }
  static std::uint32_t lanes_of(const Lanes& index) {
    std::uint32_t m = 0;
    for (int l = 0; l < 32; ++l) m |= index[l] >= 0 ? 1u << l : 0u;
    return m;
  }
  void head(std::uint64_t file, std::uint32_t line, std::uint32_t block, std::uint32_t mask, std::uint16_t warp,
            std::uint8_t op, int array, int kernel, int form, int size) {
    put(records_, file, 8);
    put(records_, line, 4);
    put(records_, block, 4);
    put(records_, mask, 4);
    put(records_, warp, 2);
    records_.push_back(static_cast<char>(op));
    records_.push_back(static_cast<char>(array));
    records_.push_back(static_cast<char>(kernel));
    records_.push_back(static_cast<char>(form));
    records_.push_back(static_cast<char>(size));
    records_.append(5, '\0');
    ++records_count_;
  }

  std::string tables_, kernels_, records_;
  int arrays_ = 0, kernel_count_ = 0;
  std::uint64_t records_count_ = 0;
};

}  // namespace mmsim::test
