// What every traced example shares: its command line, the timing of the untraced kernel, the
// traced run that writes the trace, and the one result line scripts/traced_examples.sh reads.
//
//   EXAMPLE TRACE_FILE [--reps N]
//
// prints "traced_example name=... untraced_ms=... traced_ms=... records=... dropped=...
// trace_bytes=... bytes_per_record=..." and exits 0 when the output checks; 1 otherwise.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mmsim/trace.cuh"

namespace traced_example {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

struct Options {
  std::string trace;
  int reps = 20;
};

inline Options options(int argc, char** argv, const char* name) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      o.reps = std::atoi(argv[++i]);
    } else if (o.trace.empty() && argv[i][0] != '-') {
      o.trace = argv[i];
    } else {
      std::fprintf(stderr, "usage: %s TRACE_FILE [--reps N]\n", name);
      std::exit(2);
    }
  }
  if (o.trace.empty() || o.reps < 1) {
    std::fprintf(stderr, "usage: %s TRACE_FILE [--reps N] (N >= 1)\n", name);
    std::exit(2);
  }
  return o;
}

/// Milliseconds a launch takes: `launch()` three times to warm up, then the mean of `reps` launches
/// between two cudaEvents.
template <class Launch>
float time_ms(Launch launch, int reps) {
  for (int i = 0; i < 3; ++i) launch();
  check(cudaDeviceSynchronize(), "warm-up");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  check(cudaEventRecord(start), "cudaEventRecord");
  for (int i = 0; i < reps; ++i) launch();
  check(cudaEventRecord(stop), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "the timed launches");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / static_cast<float>(reps);
}

/// Times the untraced launches, then the traced ones (the recorder reset before each, so the last
/// one's records are kept), writes the trace and prints the result line. `untraced()` and
/// `traced(recorder)` launch the kernels once; `verify()` checks the output against the host's,
/// after the untraced launches and again after the traced ones.
template <class Untraced, class Traced, class Verify>
bool run(const char* name, const Options& o, mmsim::TraceRecorder& recorder, Untraced untraced, Traced traced,
         Verify verify) {
  const float plain = time_ms(untraced, o.reps);
  check(cudaGetLastError(), "the untraced launches");
  bool output_ok = verify();
  const float with_trace = time_ms(
      [&] {
        recorder.reset();
        traced(recorder);
      },
      o.reps);
  check(cudaGetLastError(), "the traced launches");
  output_ok = verify() && output_ok;
  const mmsim::TraceSummary s = recorder.write(o.trace);
  std::printf(
      "traced_example name=%s untraced_ms=%.6f traced_ms=%.6f records=%llu dropped=%llu trace_bytes=%llu "
      "bytes_per_record=%.1f output=%s\n",
      name, plain, with_trace, s.records, s.dropped, s.bytes,
      s.records ? static_cast<double>(s.bytes) / static_cast<double>(s.records) : 0.0, output_ok ? "ok" : "WRONG");
  return output_ok && s.ok;
}

/// The transposes' n x n input: element i holds i mod 65536 (exact in a float).
inline std::vector<float> matrix(int n) {
  std::vector<float> h(static_cast<std::size_t>(n) * n);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>(i % 65536);
  return h;
}

/// Device memory for a kernel from `in` to `out`: `in` a copy of the host's `h`, `out` as large.
struct InOut {
  float* in;
  float* out;
};
inline InOut upload(const std::vector<float>& h) {
  InOut d{};
  check(cudaMalloc(&d.in, h.size() * 4), "cudaMalloc");
  check(cudaMalloc(&d.out, h.size() * 4), "cudaMalloc");
  check(cudaMemcpy(d.in, h.data(), h.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
  return d;
}

/// Whether the device's n x n `out` is the transpose of the host's `in`.
inline bool is_transpose(const float* out, const std::vector<float>& in, int n) {
  std::vector<float> r(in.size());
  check(cudaMemcpy(r.data(), out, r.size() * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (r[static_cast<std::size_t>(x) * n + y] != in[static_cast<std::size_t>(y) * n + x]) return false;
  return true;
}

}  // namespace traced_example
