// The three ways `mmsim access` poses one memory instruction: explicit warps (--warp), an address
// expression per thread (--addr), or a cell expression per thread through a layout (--layout,
// --cell). Each turns into warps of addresses for teaching/access.h; bad input throws InputError
// with one line naming the option.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/params.h"
#include "models/machines.h"
#include "models/real_accesses.h"
#include "sim/types.h"

namespace mmsim::teaching {

/// Addresses above this are refused (the simulated memory holds every cell up to the largest).
inline constexpr Address kMaxPosedAddress = (Address{1} << 24) - 1;
/// Threads an --addr or --cell access may have.
inline constexpr std::uint64_t kMaxPosedThreads = 1u << 16;

struct PosedAccess {
  std::vector<std::vector<Address>> warps;       ///< kNoAddress: inactive
  std::vector<std::vector<std::int64_t>> cells;  ///< per thread, when posed through a layout
  std::string posed;                             ///< one line saying how
  std::string layout;                            ///< the layout described, when posed through one
};

/// --warp texts: each warp exactly w comma-separated fields, an address or `_` for an inactive
/// thread (`-` is read as `_`, the spelling of earlier versions). An empty field, a missing or an
/// extra field is refused: a typo must not pass as an idle thread.
PosedAccess pose_warps(const std::vector<std::string>& texts, int w);
/// The same warps given as numbers (a library caller's: Python's lists), a negative entry an
/// inactive thread; refused with the lines --warp would get for them.
PosedAccess pose_warps(const std::vector<std::vector<std::int64_t>>& warps, int w);

/// The width and latency of a posed access, as `mmsim access` takes them: one rule for the command
/// and the Python module, so that both refuse a value with the same line.
inline ParamSpec access_width_param() {
  return integer_param("w", "-w,--width", "width: banks, threads per warp, address-group size", 1, 65536);
}
inline ParamSpec access_latency_param() {
  return integer_param("l", "-l,--latency", "latency of the memory", 1, std::int64_t{1} << 20);
}

/// What each thread of `mmsim access` moves (--element-bytes, --vector) and how (--op): one rule for
/// the command and the explorer, so that both refuse a value with the same line.
inline ParamSpec access_element_bytes_param() {
  return integer_param("element_bytes", "--element-bytes",
                       "bytes of an element: 1, 2, 4, 8 or 16 (the widths extension; docs/model.md)", 1, 16, 4,
                       IntegerShape::PowerOfTwo);
}
inline ParamSpec access_vector_param() {
  return integer_param("vector", "--vector", "elements a thread moves: 1, 2 or 4 (float2, float4, ...)", 1, 4, 1,
                       IntegerShape::PowerOfTwo);
}
/// The instruction's shape and operation.
struct PosedShape {
  AccessShape shape;
  Op op = Op::Read;
};
/// --op OP (read, write, atomic-add, atomic-min, atomic-max, atomic-exch, atomic-cas, increment) with
/// the element bytes and vector already checked by the two rules above: an atomic updates one 4-byte
/// word a thread, and a thread moves at most 16 bytes. Throws InputError naming --op or --vector.
PosedShape pose_shape(std::uint32_t element_bytes, std::uint32_t vector, const std::string& op);
/// A vector access is aligned to its size: every thread's address a multiple of the vector, or
/// InputError naming --vector.
void check_vector_alignment(const PosedAccess& posed, const AccessShape& shape);

/// A register of `mmsim access --reg NAME=v0,v1,...`: one value per thread, as an earlier step of a
/// kernel would have loaded it (a gather's index, a histogram's key). The k-th register given is
/// rk, and its name stands for it in --addr.
struct RegisterValues {
  std::string name;
  std::vector<std::int64_t> values;
};
/// Parses "NAME=v0,v1,...": a name of letters, digits and _ that starts with a letter and is none of
/// the expression's own names; each value an integer. Throws InputError naming --reg.
RegisterValues parse_register(const std::string& text);

/// --addr EXPR for threads 0 .. threads-1 (teaching/expression.h); `_` or a negative
/// value is an inactive thread. `registers` (each with one value per thread) are r0, r1, ... and
/// their names.
PosedAccess pose_addresses(std::string_view expr, int w, std::uint64_t threads,
                           const std::vector<RegisterValues>& registers = {});

/// --layout L --cell 'E1, E2' (a w x w matrix) or 'E1, E2, E3, E4' (a w^4 array): thread t requests
/// the address of cell (E1(t), E2(t)...) under layout L drawn from `seed`. `_` or a negative
/// coordinate is an inactive thread; a coordinate >= w is refused.
PosedAccess pose_cells(std::string_view layout, std::string_view cells, int w, std::uint64_t threads,
                       std::uint64_t seed);

/// One `mmsim access` as asked, whoever asks it (the command, Python's mmsim.access): exactly one
/// of the three ways (warps as text or as numbers, addr, layout with cell), and the options that go
/// with each. An empty optional is an option not given.
struct AccessRequest {
  std::string model = "dmm";
  std::int64_t w = 4, l = 5;
  std::optional<std::vector<std::string>> warp_texts;                 ///< --warp, as typed
  std::optional<std::vector<std::vector<std::int64_t>>> warp_values;  ///< the same as numbers
  std::optional<std::string> addr, layout, cell;
  std::optional<std::int64_t> threads, seed;
  std::int64_t element_bytes = 4, vector = 1;
  std::string op = "read";
  std::vector<std::string> registers;  ///< --reg NAME=v0,v1,...
};
/// The machine, the posed access and its shape as the command checks them, every refusal an
/// InputError of one line naming the option (--model, -w, --layout, ...).
struct PosedRequest {
  MachineParams machine;
  PosedAccess posed;
  PosedShape shaped;
};
PosedRequest pose_request(const AccessRequest& request);

}  // namespace mmsim::teaching
