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
enum class Op : std::uint8_t { Read, Write };

inline const char* to_string(Space s) { return s == Space::Shared ? "shared" : "global"; }
inline const char* to_string(Op o) { return o == Op::Read ? "read" : "write"; }

}  // namespace mmsim
