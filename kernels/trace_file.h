// A traced CUDA run's file (written by include/mmsim/trace.cuh; the format is docs/traced-runs.md),
// read with every field checked, and turned into a ProgramSpec (kernel_spec.h) whose steps give
// their addresses thread by thread: one step per (source line, access of that line, dynamic
// occurrence in the warp), named "file:line", in program order. Everything downstream (run_program,
// the reports, the prediction) is then the kernel file's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernel_spec.h"

namespace mmsim::kernels {

/// The op of a record, as trace.cuh's TraceOp.
enum class TraceOp : std::uint8_t {
  Read,
  Write,
  AtomicAdd,
  AtomicMin,
  AtomicMax,
  AtomicExch,
  AtomicCas,
  AtomicInc,
  Barrier
};

struct TraceArray {
  std::string name;
  Space space = Space::Global;
  std::uint64_t elements = 0;
  std::uint32_t element_bytes = 4;
};

struct TraceKernel {
  std::string name;
  std::uint32_t blocks = 0;
  std::uint32_t threads_per_block = 0;
};

/// One warp access. index(lane) is the element index of an active lane.
struct TraceRecord {
  std::uint32_t file = 0, line = 0, block = 0, mask = 0;
  std::uint16_t warp = 0;
  TraceOp op = TraceOp::Read;
  std::uint8_t array = 0, kernel = 0, size = 0;
  bool affine = true;
  std::int64_t base = 0, stride = 0;  ///< affine: index(lane) = base + lane x stride
  std::uint64_t table = 0;            ///< else: the first of 32 indices in Trace::tables

  std::uint64_t index(unsigned lane, const std::vector<std::uint32_t>& tables) const {
    return affine ? static_cast<std::uint64_t>(base + static_cast<std::int64_t>(lane) * stride) : tables[table + lane];
  }
};

struct Trace {
  std::string source;  ///< the file, for messages
  std::string device;  ///< the GPU that ran it
  std::uint32_t warp_size = 32, sm_count = 0;
  std::vector<std::string> files;
  std::vector<TraceArray> arrays;
  std::vector<TraceKernel> kernels;
  std::vector<TraceRecord> records;
  std::vector<std::uint32_t> tables;  ///< 32 indices per table record
  std::uint64_t file_bytes = 0;
};

/// Bounds: what a replay can afford (a trace is a user's input).
inline constexpr std::uint64_t kMaxTraceBytes = std::uint64_t{1} << 30;
inline constexpr std::uint64_t kMaxTraceRecords = std::uint64_t{1} << 25;
inline constexpr std::uint64_t kMaxTraceTableEntries = std::uint64_t{1} << 28;  ///< steps x threads

/// Parses a trace file's bytes; `source` names it in messages. Every field is checked; a fault is
/// InputError, one line naming the source, the record (or header part) and the rule.
Trace parse_trace(std::string_view bytes, const std::string& source);

/// Opens `path` (a regular file of at most kMaxTraceBytes) as the value of `option` and parses it.
Trace read_trace_file(const std::string& option, const std::string& path);

/// The program the trace recorded, on `machine` (w must be the trace's warp size). Each kernel
/// launch is a kernel; its steps are the (file, line, array, op, occurrence) keys of its warps'
/// records in an order that keeps every warp's own order (first seen first); a barrier record is a
/// barrier step. Reads load into r0, writes store r0, atomics update with r0 (cas: r0, r1).
ProgramSpec trace_program(const Trace& trace, const MachineParams& machine);

/// The machine a trace replays on without a GPU profile: an HMM of w = the warp size, k = the
/// trace's SMs, mmsim's default latencies, with the widths and atomics extensions.
MachineParams trace_machine(const Trace& trace);

/// "file:line" of a step made from a trace: the file's last path component.
std::string trace_line_name(const Trace& trace, std::uint32_t file, std::uint32_t line);

}  // namespace mmsim::kernels
