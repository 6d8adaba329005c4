// A vector whose resize leaves new elements uninitialised, for large buffers that are written
// before they are read, by the threads that use them: their pages are then first touched on those
// threads, instead of being zeroed on one thread first (at n = 2^24 the schedule builder's buffers
// take about 0.2 s to zero on one core).
#pragma once

#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace mmsim::offline {

template <typename T>
struct NoInitAllocator : std::allocator<T> {
  using std::allocator<T>::allocator;
  template <typename U>
  struct rebind {
    using other = NoInitAllocator<U>;
  };
  // Value-initialisation (what resize asks for) becomes default-initialisation: nothing for an integer.
  template <typename U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <typename T>
using NoInitVector = std::vector<T, NoInitAllocator<T>>;

}  // namespace mmsim::offline
