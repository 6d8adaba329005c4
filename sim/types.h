// Basic vocabulary of the engine: addresses, cell values, time units.
#pragma once

#include <cstdint>
#include <limits>

namespace mmsim {

/// Address of one memory cell m[i] (KNI Sect. 2).
using Address = std::uint64_t;

/// What a thread presents when it makes no request in an instruction (docs/model.md "One warp access
/// and its slots": inactive threads send nothing; a warp whose threads are all inactive is not dispatched).
inline constexpr Address kNoAddress = std::numeric_limits<Address>::max();

/// Content of one memory cell or register. 32 bits hold every index and key mmsim moves (arrays
/// up to 2^32 cells), and halve the host memory a 2^24-cell simulation needs against 64 bits.
using Word = std::uint32_t;

/// Simulated time, in the model's time units (one slot enters a pipeline per time unit).
using TimeUnits = std::int64_t;

/// Index of a thread T(i) over the whole launch.
using ThreadId = std::uint64_t;

enum class Space : std::uint8_t { Shared, Global };
/// A memory instruction reads, writes, or updates its cells atomically (a read-modify-write).
enum class Op : std::uint8_t { Read, Write, Atomic };

/// The update of an atomic instruction, applied thread after thread, lowest first
/// (docs/model.md, "Real accesses"): Add, Min, Max and Exchange with the thread's operand,
/// CompareAndSwap (the new value when the cell holds the compared one), and Increment: add 1
/// whose old value nobody reads, a histogram's count, which the GPU combines over the warp.
enum class AtomicOp : std::uint8_t { None, Add, Min, Max, Exchange, CompareAndSwap, Increment };

inline const char* to_string(Space s) { return s == Space::Shared ? "shared" : "global"; }
inline const char* to_string(Op o) { return o == Op::Read ? "read" : o == Op::Write ? "write" : "atomic"; }
inline const char* to_string(AtomicOp a) {
  switch (a) {
    case AtomicOp::None:
      return "none";
    case AtomicOp::Add:
      return "add";
    case AtomicOp::Min:
      return "min";
    case AtomicOp::Max:
      return "max";
    case AtomicOp::Exchange:
      return "exchange";
    case AtomicOp::CompareAndSwap:
      return "cas";
    case AtomicOp::Increment:
      return "increment";
  }
  return "?";
}

}  // namespace mmsim
