#include "sim/workers.h"

#include <sched.h>

#include <algorithm>
#include <utility>

namespace mmsim {

// The cores this process may run on (taskset, a container's cpuset), as nproc counts them: a
// host's whole core count would start more threads than there are cores to run them. Asked once:
// the answer costs a system call (glibc's fallback reads /sys), and an algorithm of many small
// launches (the AS family launches one kernel per step) would spend most of its time there.
unsigned hardware_threads() {
  static const unsigned cores = [] {
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
      return static_cast<unsigned>(CPU_COUNT(&set));
#endif
    return std::max(1u, std::thread::hardware_concurrency());
  }();
  return cores;
}

unsigned resolve_threads(unsigned requested) { return requested == 0 ? hardware_threads() : requested; }

WorkerPool::WorkerPool(unsigned threads) {
  for (unsigned i = 1; i < std::max(1u, threads); ++i) helpers_.emplace_back([this, i] { helper_loop(i); });
}

WorkerPool::~WorkerPool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : helpers_) t.join();
}

void WorkerPool::work(unsigned worker) {
  while (true) {
    std::size_t i = 0;
    {
      const std::lock_guard lock(mutex_);
      if (next_ >= tasks_) return;
      i = next_++;
    }
    try {
      (*task_)(i, worker);
    } catch (...) {
      const std::lock_guard lock(mutex_);
      if (!error_ || i < failed_task_) {
        error_ = std::current_exception();
        failed_task_ = i;
      }
    }
  }
}

void WorkerPool::helper_loop(unsigned worker) {
  std::size_t seen = 0;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    work(worker);
    {
      const std::lock_guard lock(mutex_);
      if (--busy_ == 0) finished_.notify_one();
    }
  }
}

void WorkerPool::run(std::size_t tasks, const std::function<void(std::size_t)>& task) {
  run(tasks, std::function<void(std::size_t, unsigned)>([&task](std::size_t i, unsigned) { task(i); }));
}

void WorkerPool::run(std::size_t tasks, const std::function<void(std::size_t, unsigned)>& task) {
  if (helpers_.empty() || tasks <= 1) {
    // Same semantics on one thread: every task runs, the lowest failure is rethrown.
    std::exception_ptr error;
    for (std::size_t i = 0; i < tasks; ++i) try {
        task(i, 0);
      } catch (...) {
        if (!error) error = std::current_exception();
      }
    if (error) std::rethrow_exception(error);
    return;
  }
  {
    const std::lock_guard lock(mutex_);
    task_ = &task;
    tasks_ = tasks;
    next_ = 0;
    error_ = nullptr;
    busy_ = static_cast<unsigned>(helpers_.size());
    ++generation_;
  }
  wake_.notify_all();
  work(0);
  std::exception_ptr error;
  {
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return busy_ == 0; });
    task_ = nullptr;
    error = std::exchange(error_, nullptr);
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace mmsim
