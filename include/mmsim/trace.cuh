// mmsim/trace.cuh: a CUDA kernel that records its own memory accesses, one record per warp access,
// for `mmsim replay` (docs/traced-runs.md). Header only; needs nvcc (C++17) and a GPU of compute
// capability 7.0 or later (__match_any_sync).
//
//   mmsim::TraceRecorder rec(64 << 20);                       // device buffer of 64 MiB
//   const int IN = rec.global_array("in", n, sizeof(float));  // the arrays the kernels name
//   const int TILE = rec.shared_array("tile", 32 * 33, sizeof(float));
//   kernel<<<grid, block>>>(d_in, d_out, rec.launch("transpose", grid, block));
//   rec.write("transpose.mmtrace");                           // copies the records back, writes the file
//
//   __global__ void kernel(const float* in_, float* out_, mmsim::TraceSink sink) {
//     __shared__ float tile_[32 * 33];
//     mmsim::traced<const float> in(in_, sink, 0);             // the array's index in the recorder
//     mmsim::traced<float> tile(tile_, sink, 2);
//     tile[threadIdx.y * 33 + threadIdx.x] = in[i];            // one read record, then one write record
//     mmsim::sync(sink);                                       // __syncthreads(), recorded as a barrier
//     ...
//   }
//
// Every access through a traced array's operator[] records, in the warp that makes it, the source
// file and line of the expression (default arguments __builtin_FILE / __builtin_LINE evaluated at
// the call), the block, the warp in the block, the mask of the lanes that take part, the op, the
// array, the access size and the element index of each lane. The lanes that make the same access
// together are found with __match_any_sync over (line, array, op) and the file, so that one record
// is written per warp access, by its lowest lane, not one per thread. When the lanes' indices are
// base + lane x stride (a coalesced or strided access) the record holds base and stride (48 bytes);
// otherwise it holds the 32 indices (160 bytes). The buffer is bounded: a record that does not fit
// is dropped and counted, and TraceRecorder::write reports the count; `mmsim replay` refuses a
// trace that dropped records.
//
// The same kernel compiles untraced for timing: mmsim::untraced<T> has traced<T>'s constructor and
// operator[] but returns a plain reference, and the atomic helpers below take either.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace mmsim {

/// The op of a record (docs/traced-runs.md). Atomics carry their update; Barrier has no addresses.
enum class TraceOp : std::uint8_t {
  Read = 0,
  Write = 1,
  AtomicAdd = 2,
  AtomicMin = 3,
  AtomicMax = 4,
  AtomicExch = 5,
  AtomicCas = 6,
  AtomicInc = 7,
  Barrier = 8
};

/// The fixed part of a record: 32 bytes, followed by its payload. In the device buffer `file` is
/// the address of the __FILE__ string; the file written by TraceRecorder holds its index in the
/// trace's file table instead.
struct TraceRecordHead {
  std::uint64_t file;
  std::uint32_t line;
  std::uint32_t block;  ///< blockIdx, linear (x fastest)
  std::uint32_t mask;   ///< the lanes that make this access
  std::uint16_t warp;   ///< warp in the block: linear threadIdx / 32
  std::uint8_t op;      ///< TraceOp
  std::uint8_t array;   ///< index into the trace's array table
  std::uint8_t kernel;  ///< index into the trace's kernel table
  std::uint8_t form;    ///< 0: no payload (barrier), 1: base and stride, 2: 32 indices
  std::uint8_t size;    ///< bytes a lane moves
  std::uint8_t reserved0;
  std::uint32_t reserved1;
};
static_assert(sizeof(TraceRecordHead) == 32, "a record head is 32 bytes");

inline constexpr std::uint32_t kTraceFormAffine = 1, kTraceFormTable = 2;
inline constexpr std::uint32_t kTraceNoIndex =
    0xFFFFFFFFu;  ///< a lane outside the mask, or an index outside [0, 2^32 - 1)
inline constexpr char kTraceMagic[8] = {'M', 'M', 'S', 'I', 'M', 'T', 'R', 'C'};
inline constexpr std::uint32_t kTraceVersion = 1;

/// What a kernel receives to record into (by value). A null `words` records nothing.
struct TraceSink {
  std::uint32_t* words = nullptr;
  unsigned long long capacity = 0;         ///< in 4-byte words
  unsigned long long* counters = nullptr;  ///< [0] words reserved, [1] records dropped, [2] records kept
  std::uint8_t kernel = 0;
};

namespace detail {

__device__ inline unsigned trace_lane() {
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return t % 32u;
}

__device__ inline unsigned trace_warp() {
  return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32u;
}

__device__ inline unsigned trace_block() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }

/// Records one warp access: called by every lane that makes it, with its own element index.
__device__ inline void trace_record(const TraceSink& s, TraceOp op, unsigned array, unsigned size, long long index,
                                    unsigned line, const char* file) {
  if (s.words == nullptr) return;
  const unsigned active = __activemask();
  // The lanes that make this very access: same line, array and op, and same file.
  const unsigned key = (line << 12) ^ (array << 4) ^ static_cast<unsigned>(op);
  const unsigned mask =
      __match_any_sync(active, key) &
      __match_any_sync(active, static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(file)));
  const unsigned lane = trace_lane();
  const int leader = __ffs(mask) - 1;
  const unsigned rest = mask & ~(1u << leader);
  const int second = rest ? __ffs(rest) - 1 : leader;
  const long long base = __shfl_sync(mask, index, leader);
  const long long next = __shfl_sync(mask, index, second);
  const long long stride = second != leader ? (next - base) / (second - leader) : 0;
  const bool fits = index == base + (static_cast<long long>(lane) - leader) * stride;
  const bool affine = op == TraceOp::Barrier || __all_sync(mask, fits);
  const unsigned form = op == TraceOp::Barrier ? 0u : affine ? kTraceFormAffine : kTraceFormTable;
  const unsigned words = (32u + (form == 0 ? 0u : form == kTraceFormAffine ? 16u : 128u)) / 4u;
  unsigned long long at = 0;
  if (static_cast<int>(lane) == leader) {
    at = atomicAdd(&s.counters[0], static_cast<unsigned long long>(words));
    if (at + words > s.capacity) {
      atomicAdd(&s.counters[1], 1ull);
      at = ~0ull;
    } else {
      atomicAdd(&s.counters[2], 1ull);
    }
  }
  at = __shfl_sync(mask, at, leader);
  if (at == ~0ull) return;
  std::uint32_t* r = s.words + at;
  if (static_cast<int>(lane) == leader) {
    TraceRecordHead h{};
    h.file = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(file));
    h.line = line;
    h.block = trace_block();
    h.mask = mask;
    h.warp = static_cast<std::uint16_t>(trace_warp());
    h.op = static_cast<std::uint8_t>(op);
    h.array = static_cast<std::uint8_t>(array);
    h.kernel = s.kernel;
    h.form = static_cast<std::uint8_t>(form);
    h.size = static_cast<std::uint8_t>(size);
    memcpy(r, &h, sizeof h);
    if (form == kTraceFormAffine) {
      const long long pair[2] = {base - leader * stride, stride};  // index of lane 0, then per lane
      memcpy(r + 8, pair, sizeof pair);
    } else if (form == kTraceFormTable) {
      for (unsigned l = 0; l < 32; ++l)
        if (!(mask >> l & 1u)) r[8 + l] = kTraceNoIndex;
    }
  }
  if (form == kTraceFormTable)
    r[8 + lane] =
        index >= 0 && index < static_cast<long long>(kTraceNoIndex) ? static_cast<std::uint32_t>(index) : kTraceNoIndex;
}

template <class T>
struct identity {
  using type = T;
};

}  // namespace detail

/// An index with the source line and file of the expression that wrote it: operator[] takes one,
/// so `a[i]` records the line of `a[i]`.
struct TraceIndex {
  long long i;
  unsigned line;
  const char* file;
  template <class I>
  __device__ TraceIndex(I index, unsigned l = __builtin_LINE(), const char* f = __builtin_FILE())
      : i(static_cast<long long>(index)), line(l), file(f) {}
};

template <class T>
class traced;

/// What traced<T>::operator[] returns: reading it records a read, assigning to it a write.
template <class T>
class traced_ref {
 public:
  __device__ traced_ref(const traced<T>* a, TraceIndex at) : a_(a), at_(at) {}
  __device__ operator T() const {
    record(TraceOp::Read);
    return a_->data()[at_.i];
  }
  __device__ const traced_ref& operator=(const T& v) const {
    record(TraceOp::Write);
    a_->data()[at_.i] = v;
    return *this;
  }
  __device__ const traced_ref& operator=(const traced_ref& o) const { return *this = static_cast<T>(o); }
  template <class U>
  __device__ const traced_ref& operator=(const traced_ref<U>& o) const {
    return *this = static_cast<T>(static_cast<U>(o));
  }
  __device__ const traced_ref& operator+=(const T& v) const { return *this = static_cast<T>(*this) + v; }
  __device__ const traced_ref& operator-=(const T& v) const { return *this = static_cast<T>(*this) - v; }
  __device__ T* address() const { return a_->data() + at_.i; }
  __device__ void record(TraceOp op) const {
    detail::trace_record(a_->sink(), op, a_->array(), sizeof(T), at_.i, at_.line, at_.file);
  }

 private:
  const traced<T>* a_;
  TraceIndex at_;
};

/// A global array (a device pointer) or a __shared__ array whose accesses are recorded. `array` is
/// the index TraceRecorder::global_array / shared_array returned for it.
template <class T>
class traced {
 public:
  __device__ traced(T* data, const TraceSink& sink, int array) : data_(data), sink_(sink), array_(array) {}
  __device__ traced_ref<T> operator[](TraceIndex at) const { return traced_ref<T>(this, at); }
  __device__ T* data() const { return data_; }
  __device__ const TraceSink& sink() const { return sink_; }
  __device__ unsigned array() const { return static_cast<unsigned>(array_); }

 private:
  T* data_;
  TraceSink sink_;
  int array_;
};

/// traced<T>'s interface without the recording: the kernel timed as it is.
template <class T>
class untraced {
 public:
  __device__ untraced(T* data, const TraceSink&, int) : data_(data) {}
  __device__ T& operator[](long long i) const { return data_[i]; }

 private:
  T* data_;
};

/// traced<T> when On, untraced<T> otherwise: a kernel templated on one bool is both.
template <class T, bool On>
struct trace_array_of {
  using type = traced<T>;
};
template <class T>
struct trace_array_of<T, false> {
  using type = untraced<T>;
};
template <class T, bool On>
using trace_array = typename trace_array_of<T, On>::type;

// Atomics on either kind of element: a traced one records one atomic access, then updates.
// MMSIM_TRACE_ATOMIC(name, CUDA's function, op) defines name(T&, v) and name(traced_ref<T>, v).
#define MMSIM_TRACE_ATOMIC(name, cuda, op)                                             \
  template <class T>                                                                   \
  __device__ T name(T& cell, typename detail::identity<T>::type v) {                   \
    return cuda(&cell, v);                                                             \
  }                                                                                    \
  template <class T>                                                                   \
  __device__ T name(const traced_ref<T>& cell, typename detail::identity<T>::type v) { \
    cell.record(op);                                                                   \
    return cuda(cell.address(), v);                                                    \
  }
MMSIM_TRACE_ATOMIC(atomic_add, atomicAdd, TraceOp::AtomicAdd)
MMSIM_TRACE_ATOMIC(atomic_min, atomicMin, TraceOp::AtomicMin)
MMSIM_TRACE_ATOMIC(atomic_max, atomicMax, TraceOp::AtomicMax)
MMSIM_TRACE_ATOMIC(atomic_exch, atomicExch, TraceOp::AtomicExch)
#undef MMSIM_TRACE_ATOMIC
template <class T>
__device__ T atomic_cas(T& cell, typename detail::identity<T>::type compare, typename detail::identity<T>::type v) {
  return atomicCAS(&cell, compare, v);
}
template <class T>
__device__ T atomic_cas(const traced_ref<T>& cell, typename detail::identity<T>::type compare,
                        typename detail::identity<T>::type v) {
  cell.record(TraceOp::AtomicCas);
  return atomicCAS(cell.address(), compare, v);
}

/// __syncthreads(), recorded as a barrier of the warp (mmsim replays it as the kernel's barrier).
__device__ inline void sync(const TraceSink& sink, unsigned line = __builtin_LINE(),
                            const char* file = __builtin_FILE()) {
  if (sink.words != nullptr) detail::trace_record(sink, TraceOp::Barrier, 0, 0, 0, line, file);
  __syncthreads();
}

/// What TraceRecorder::write found: records kept and dropped, the file's bytes.
struct TraceSummary {
  unsigned long long records = 0;
  unsigned long long dropped = 0;
  unsigned long long bytes = 0;  ///< of the file written
  bool ok = false;               ///< written, and nothing dropped
};

/// The host side: owns the device buffer, the array and kernel tables, and writes the trace file.
class TraceRecorder {
 public:
  explicit TraceRecorder(std::size_t capacity_bytes = std::size_t{256} << 20) {
    capacity_words_ = capacity_bytes / 4;
    check(cudaMalloc(&words_, capacity_words_ * 4), "cudaMalloc of the trace buffer");
    check(cudaMalloc(&counters_, 3 * sizeof(unsigned long long)), "cudaMalloc of the trace counters");
    reset();
  }
  ~TraceRecorder() {
    cudaFree(words_);
    cudaFree(counters_);
  }
  TraceRecorder(const TraceRecorder&) = delete;
  TraceRecorder& operator=(const TraceRecorder&) = delete;

  /// A global array of `elements` elements of `element_bytes` bytes; returns its index.
  int global_array(const std::string& name, unsigned long long elements, unsigned element_bytes) {
    return add_array(name, 0, elements, element_bytes);
  }
  /// A __shared__ array of `elements` elements per block.
  int shared_array(const std::string& name, unsigned long long elements, unsigned element_bytes) {
    return add_array(name, 1, elements, element_bytes);
  }

  /// Registers a launch of `grid` blocks of `block` threads; pass what it returns to the kernel.
  TraceSink launch(const std::string& name, dim3 grid, dim3 block) {
    if (kernels_.size() >= 255) fail("more than 255 traced launches");
    kernels_.push_back(
        {name, static_cast<unsigned>(grid.x * grid.y * grid.z), static_cast<unsigned>(block.x * block.y * block.z)});
    TraceSink s;
    s.words = words_;
    s.capacity = capacity_words_;
    s.counters = counters_;
    s.kernel = static_cast<std::uint8_t>(kernels_.size() - 1);
    return s;
  }

  /// Forgets the launches and records (the arrays stay): a traced run after a traced warm-up.
  void reset() {
    kernels_.clear();
    check(cudaMemset(counters_, 0, 3 * sizeof(unsigned long long)), "cudaMemset of the trace counters");
  }

  /// Waits for the device, copies the records back and writes the trace file (docs/traced-runs.md).
  /// Dropped records are reported on stderr and in the file's header, never silently lost.
  TraceSummary write(const std::string& path) {
    check(cudaDeviceSynchronize(), "the traced kernels");
    unsigned long long c[3];
    check(cudaMemcpy(c, counters_, sizeof c, cudaMemcpyDeviceToHost), "copying the trace counters");
    TraceSummary sum;
    sum.records = c[2];
    sum.dropped = c[1];
    // The kept records tile the buffer from its start (a reservation that fails is the first past
    // its end, and every later one is past it too).
    std::vector<std::uint32_t> host;
    std::size_t used = 0;
    {
      const unsigned long long reserved = c[0] < capacity_words_ ? c[0] : capacity_words_;
      host.resize(reserved);
      if (reserved) check(cudaMemcpy(host.data(), words_, reserved * 4, cudaMemcpyDeviceToHost), "copying the trace");
      for (unsigned long long r = 0; r < c[2]; ++r) {
        TraceRecordHead h;
        std::memcpy(&h, host.data() + used, sizeof h);
        used += (32 + (h.form == 0 ? 0 : h.form == kTraceFormAffine ? 16 : 128)) / 4;
      }
    }
    // File pointers to the file table: each distinct __FILE__ string copied from the device.
    std::vector<std::uint64_t> pointers;
    std::vector<std::string> files;
    for (std::size_t at = 0; at < used;) {
      TraceRecordHead h;
      std::memcpy(&h, host.data() + at, sizeof h);
      std::size_t f = 0;
      while (f < pointers.size() && pointers[f] != h.file) ++f;
      if (f == pointers.size()) {
        pointers.push_back(h.file);
        files.push_back(device_string(h.file, files.size()));
      }
      h.file = f;
      std::memcpy(host.data() + at, &h, sizeof h);
      at += (32 + (h.form == 0 ? 0 : h.form == kTraceFormAffine ? 16 : 128)) / 4;
    }
    std::FILE* out = std::fopen(path.c_str(), "wb");
    if (out == nullptr) fail("cannot write " + path);
    int device = 0, sms = 0;
    cudaDeviceProp prop{};
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaGetDeviceProperties(&prop, device);
    std::string bytes(kTraceMagic, 8);
    put32(bytes, kTraceVersion);
    put32(bytes, 32);
    put32(bytes, static_cast<std::uint32_t>(sms));
    put32(bytes, static_cast<std::uint32_t>(files.size()));
    put32(bytes, static_cast<std::uint32_t>(arrays_.size()));
    put32(bytes, static_cast<std::uint32_t>(kernels_.size()));
    put64(bytes, sum.records);
    put64(bytes, sum.dropped);
    put64(bytes, static_cast<std::uint64_t>(used) * 4);
    put_string(bytes, prop.name);
    for (const std::string& f : files) put_string(bytes, f);
    for (const Array& a : arrays_) {
      put_string(bytes, a.name);
      bytes.push_back(static_cast<char>(a.space));
      bytes.push_back(static_cast<char>(a.element_bytes));
      bytes.append(2, '\0');
      put64(bytes, a.elements);
    }
    for (const Kernel& k : kernels_) {
      put_string(bytes, k.name);
      put32(bytes, k.blocks);
      put32(bytes, k.threads_per_block);
    }
    bool ok = std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
    ok = ok && (used == 0 || std::fwrite(host.data(), 4, used, out) == used);
    ok = std::fclose(out) == 0 && ok;
    if (!ok) fail("writing " + path + " failed");
    sum.bytes = bytes.size() + used * 4;
    sum.ok = sum.dropped == 0;
    if (sum.dropped)
      std::fprintf(stderr,
                   "mmsim trace: %llu of %llu records dropped: the buffer of %llu bytes is full; give "
                   "TraceRecorder a larger one (mmsim replay refuses this trace)\n",
                   sum.dropped, sum.dropped + sum.records, static_cast<unsigned long long>(capacity_words_ * 4));
    return sum;
  }

 private:
  struct Array {
    std::string name;
    int space;
    unsigned long long elements;
    unsigned element_bytes;
  };
  struct Kernel {
    std::string name;
    unsigned blocks;
    unsigned threads_per_block;
  };

  [[noreturn]] static void fail(const std::string& what) {
    std::fprintf(stderr, "mmsim trace: %s\n", what.c_str());
    std::exit(1);
  }
  static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) fail(std::string(what) + ": " + cudaGetErrorString(e));
  }
  int add_array(const std::string& name, int space, unsigned long long elements, unsigned element_bytes) {
    if (arrays_.size() >= 255) fail("more than 255 traced arrays");
    arrays_.push_back({name, space, elements, element_bytes});
    return static_cast<int>(arrays_.size() - 1);
  }
  // A __FILE__ string the device holds, copied 16 bytes at a time up to its NUL (at most 255 bytes).
  static std::string device_string(std::uint64_t address, std::size_t index) {
    std::string s;
    char chunk[16];
    while (s.size() < 255) {
      if (cudaMemcpy(chunk, reinterpret_cast<const void*>(address + s.size()), sizeof chunk, cudaMemcpyDefault) !=
          cudaSuccess) {
        cudaGetLastError();
        // The string's last bytes may end its allocation: copy one byte at a time.
        char one = 0;
        if (cudaMemcpy(&one, reinterpret_cast<const void*>(address + s.size()), 1, cudaMemcpyDefault) != cudaSuccess) {
          cudaGetLastError();
          return "file" + std::to_string(index);
        }
        if (one == '\0') return s;
        s.push_back(one);
        continue;
      }
      const void* end = std::memchr(chunk, '\0', sizeof chunk);
      if (end != nullptr) return s.append(chunk, static_cast<const char*>(end) - chunk);
      s.append(chunk, sizeof chunk);
    }
    return s;
  }
  static void put32(std::string& b, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<char>(v >> (8 * i) & 0xFF));
  }
  static void put64(std::string& b, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) b.push_back(static_cast<char>(v >> (8 * i) & 0xFF));
  }
  static void put_string(std::string& b, const std::string& s) {
    const std::size_t n = s.size() < 255 ? s.size() : 255;
    b.push_back(static_cast<char>(n & 0xFF));
    b.push_back('\0');
    b.append(s, 0, n);
  }

  std::uint32_t* words_ = nullptr;
  unsigned long long* counters_ = nullptr;
  std::size_t capacity_words_ = 0;
  std::vector<Array> arrays_;
  std::vector<Kernel> kernels_;
};

}  // namespace mmsim
