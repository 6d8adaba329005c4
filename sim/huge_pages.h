// Large blocks of the engine's memory on transparent huge pages, where the system gives them on
// request (Linux's madvise mode, the usual default).
//
// Why: a permutation's gathers and scatters touch one random cell per thread. With 4 KiB pages an
// array of 2^24 cells spans 16384 pages, far more than the host's TLB holds, so nearly every such
// access also walks the page table, and the engine's prefetches of the cells ahead wait on those
// walks. On 2 MiB pages the same array is 32 pages. Nothing the engine computes depends on it.
#pragma once

#include <cstddef>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace mmsim {

/// A std::allocator that maps blocks of at least kHugePageBytes with mmap and asks for huge pages
/// (madvise MADV_HUGEPAGE); smaller blocks, and every block where the system has no such request,
/// come from operator new. A mapped block comes zeroed, as fresh pages do.
template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

  HugePageAllocator() = default;
  template <class U>
  explicit HugePageAllocator(const HugePageAllocator<U>& /*other*/) {}

  T* allocate(std::size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (n * sizeof(T) >= kHugePageBytes) {
      void* p = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      madvise(p, n * sizeof(T), MADV_HUGEPAGE);  // a request: without it the block is still usable
      return static_cast<T*>(p);
    }
#endif
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, [[maybe_unused]] std::size_t n) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (n * sizeof(T) >= kHugePageBytes) {
      munmap(p, n * sizeof(T));
      return;
    }
#endif
    ::operator delete(p);
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>& /*other*/) const {
    return true;
  }
};

}  // namespace mmsim
