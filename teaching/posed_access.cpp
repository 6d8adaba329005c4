#include "teaching/posed_access.h"

#include <algorithm>
#include <charconv>
#include <iterator>

#include "io/input_error.h"
#include "io/quote.h"
#include "teaching/expression.h"
#include "teaching/layout_view.h"

namespace mmsim::teaching {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

void check_threads(std::uint64_t threads, const char* option) {
  if (threads < 1 || threads > kMaxPosedThreads)
    throw InputError(std::string("--threads: must be between 1 and 65536 for ") + option + " (got " +
                     std::to_string(threads) + ")");
}

// Parses `text` as one expression (or a list) for `option`, turning a syntax error into one line.
template <typename F>
auto parsed(const char* option, std::string_view text, F&& parse) {
  try {
    return parse(text);
  } catch (const ExpressionError& e) {
    throw InputError(std::string(option) + ": " + describe(e, text));
  }
}

std::optional<std::int64_t> value_for(const char* option, std::string_view text, const Expression& e, std::uint64_t t,
                                      int w, std::uint64_t threads, const std::vector<std::int64_t>& regs = {}) {
  try {
    return e.evaluate({.t = static_cast<std::int64_t>(t),
                       .w = w,
                       .p = static_cast<std::int64_t>(threads),
                       .registers = regs.data(),
                       .register_count = static_cast<int>(regs.size())});
  } catch (const ExpressionError& err) {
    throw InputError(std::string(option) + ": " + describe(err, text) + " (thread t = " + std::to_string(t) + ")");
  }
}

}  // namespace

namespace {

// The rules every warp obeys however it was given: an address in range, exactly w of them.
void check_warp(const std::string& where, const std::vector<Address>& warp, int w) {
  if (warp.size() > static_cast<std::size_t>(w))
    throw InputError(where + " has " + std::to_string(warp.size()) + " addresses, more than w = " + std::to_string(w));
  if (warp.size() < static_cast<std::size_t>(w))
    throw InputError(where + " has " + std::to_string(warp.size()) + " fields, fewer than w = " + std::to_string(w) +
                     ": give every thread an address or _ (inactive)");
}

std::string not_an_address(const std::string& where, const std::string& field) {
  return where + ": " + quote(field) + " is not an address (0 .. 16777215, or _ for an inactive thread)";
}

std::string posed_line(std::size_t warps) {
  return std::to_string(warps) + " warp" + (warps == 1 ? "" : "s") + " given address by address";
}

}  // namespace

PosedAccess pose_warps(const std::vector<std::vector<std::int64_t>>& warps, int w) {
  PosedAccess out;
  for (std::size_t j = 0; j < warps.size(); ++j) {
    // The warp as --warp would spell it, to name it in a message.
    std::string text;
    for (std::size_t t = 0; t < warps[j].size(); ++t)
      text += (t ? "," : "") + (warps[j][t] < 0 ? std::string("_") : std::to_string(warps[j][t]));
    const std::string where = "--warp: warp " + std::to_string(j) + " (" + quote(text) + ")";
    std::vector<Address> warp;
    for (const std::int64_t a : warps[j]) {
      if (a > static_cast<std::int64_t>(kMaxPosedAddress)) throw InputError(not_an_address(where, std::to_string(a)));
      warp.push_back(a < 0 ? kNoAddress : static_cast<Address>(a));
    }
    check_warp(where, warp, w);
    out.warps.push_back(std::move(warp));
  }
  out.posed = posed_line(warps.size());
  return out;
}

PosedAccess pose_warps(const std::vector<std::string>& texts, int w) {
  PosedAccess out;
  for (std::size_t j = 0; j < texts.size(); ++j) {
    const std::string where = "--warp: warp " + std::to_string(j) + " (" + quote(texts[j]) + ")";
    std::vector<std::string> fields;
    std::size_t from = 0;
    while (true) {
      const auto comma = texts[j].find(',', from);
      fields.push_back(trim(texts[j].substr(from, comma == std::string::npos ? std::string::npos : comma - from)));
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
    std::vector<Address> warp;
    for (std::size_t t = 0; t < fields.size(); ++t) {
      const std::string& f = fields[t];
      if (f.empty())
        throw InputError(where + ": field " + std::to_string(t) + " is empty (write _ for an inactive thread)");
      if (f == "_" || f == "-") {
        warp.push_back(kNoAddress);
        continue;
      }
      Address a = 0;
      const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), a);
      if (ec != std::errc{} || ptr != f.data() + f.size() || a > kMaxPosedAddress)
        throw InputError(not_an_address(where, f));
      warp.push_back(a);
    }
    check_warp(where, warp, w);
    out.warps.push_back(std::move(warp));
  }
  out.posed = posed_line(texts.size());
  return out;
}

PosedShape pose_shape(std::uint32_t element_bytes, std::uint32_t vector, const std::string& op) {
  static const std::pair<const char*, std::pair<Op, AtomicOp>> kOps[] = {
      {"read", {Op::Read, AtomicOp::None}},
      {"write", {Op::Write, AtomicOp::None}},
      {"atomic-add", {Op::Atomic, AtomicOp::Add}},
      {"atomic-min", {Op::Atomic, AtomicOp::Min}},
      {"atomic-max", {Op::Atomic, AtomicOp::Max}},
      {"atomic-exch", {Op::Atomic, AtomicOp::Exchange}},
      {"atomic-cas", {Op::Atomic, AtomicOp::CompareAndSwap}},
      {"increment", {Op::Atomic, AtomicOp::Increment}}};
  const auto it = std::find_if(std::begin(kOps), std::end(kOps), [&](const auto& x) { return op == x.first; });
  if (it == std::end(kOps))
    throw InputError(
        "--op: must be read, write, atomic-add, atomic-min, atomic-max, atomic-exch, atomic-cas or "
        "increment (got " +
        quote(op, 20) + ")");
  const PosedShape posed{.shape = {.element_bytes = element_bytes, .vector = vector, .atomic = it->second.second},
                         .op = it->second.first};
  if (posed.op == Op::Atomic && (element_bytes != 4 || vector != 1))
    throw InputError("--op: an atomic updates one 4-byte word a thread (--element-bytes 4 --vector 1)");
  if (posed.shape.bytes() > 16)
    throw InputError("--vector: a thread moves at most 16 bytes (--element-bytes " + std::to_string(element_bytes) +
                     " x --vector " + std::to_string(vector) + " = " + std::to_string(posed.shape.bytes()) + ")");
  return posed;
}

void check_vector_alignment(const PosedAccess& posed, const AccessShape& shape) {
  for (const auto& warp : posed.warps)
    for (Address a : warp)
      if (a != kNoAddress && a % shape.vector != 0)
        throw InputError("--vector: thread address " + std::to_string(a) + " is not a multiple of the vector (" +
                         std::to_string(shape.vector) + "): a vector access is aligned to its size");
}

RegisterValues parse_register(const std::string& text) {
  const auto eq = text.find('=');
  const std::string name = trim(text.substr(0, eq));
  const auto fail = [&](const std::string& why) {
    throw InputError("--reg: " + quote(text, 40) + ": " + why + " (write NAME=v0,v1,... with one value per thread)");
  };
  if (eq == std::string::npos || name.empty()) fail("no NAME=");
  if (const std::string why = register_name_problem(name); !why.empty()) fail(why);
  RegisterValues r{name, {}};
  std::size_t from = eq + 1;
  while (true) {
    const auto comma = text.find(',', from);
    const std::string f = trim(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
    if (f.empty() || ec != std::errc{} || ptr != f.data() + f.size())
      fail("value " + std::to_string(r.values.size()) + " (" + quote(f, 20) + ") is not an integer");
    r.values.push_back(v);
    if (r.values.size() > kMaxPosedThreads) fail("more values than 65536 threads");
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return r;
}

PosedAccess pose_addresses(std::string_view text, int w, std::uint64_t threads,
                           const std::vector<RegisterValues>& registers) {
  check_threads(threads, "--addr");
  std::vector<std::string> names;
  for (const auto& r : registers) {
    if (r.values.size() != threads)
      throw InputError("--reg: " + r.name + " has " + std::to_string(r.values.size()) + " values for " +
                       std::to_string(threads) + " threads: give one per thread");
    names.push_back(r.name);
  }
  const Expression e = parsed("--addr", text, [&](std::string_view s) { return Expression::parse(s, names); });
  if (e.registers_used() > static_cast<int>(registers.size()))
    throw InputError("--addr: " + quote(std::string(text)) + " names register r" +
                     std::to_string(e.registers_used() - 1) + " but " + std::to_string(registers.size()) + " --reg " +
                     (registers.size() == 1 ? "is" : "are") + " given");
  PosedAccess out;
  const auto uw = static_cast<std::uint64_t>(w);
  out.warps.resize(static_cast<std::size_t>((threads + uw - 1) / uw));
  std::vector<std::int64_t> regs(registers.size());
  for (std::uint64_t t = 0; t < threads; ++t) {
    for (std::size_t k = 0; k < registers.size(); ++k) regs[k] = registers[k].values[t];
    const auto v = value_for("--addr", text, e, t, w, threads, regs);
    Address a = kNoAddress;
    if (v && *v >= 0) {
      if (static_cast<std::uint64_t>(*v) > kMaxPosedAddress)
        throw InputError("--addr: " + quote(std::string(text)) + " gives thread t = " + std::to_string(t) +
                         " the address " + std::to_string(*v) + ", above 16777215");
      a = static_cast<Address>(*v);
    }
    out.warps[t / uw].push_back(a);
  }
  out.posed = "thread t of " + std::to_string(threads) + " requests m[" + std::string(text) + "]";
  for (std::size_t k = 0; k < registers.size(); ++k)
    out.posed += (k ? ", " : " with ") + registers[k].name + " = r" + std::to_string(k) + " loaded earlier";
  return out;
}

PosedAccess pose_cells(std::string_view layout, std::string_view text, int w, std::uint64_t threads,
                       std::uint64_t seed) {
  check_threads(threads, "--cell");
  const auto exprs = parsed("--cell", text, [](std::string_view s) { return Expression::parse_list(s); });
  if (exprs.size() != 2 && exprs.size() != 4)
    throw InputError("--cell: " + quote(std::string(text)) + " has " + std::to_string(exprs.size()) +
                     " coordinates: give 2 (i, j of a w x w matrix) or 4 (i, j, k, l of a w^4 array)");
  const DrawnLayout drawn(layout, static_cast<int>(exprs.size()), w, seed);
  PosedAccess out;
  const auto uw = static_cast<std::uint64_t>(w);
  out.warps.resize(static_cast<std::size_t>((threads + uw - 1) / uw));
  for (std::uint64_t t = 0; t < threads; ++t) {
    std::vector<std::int64_t> cell;
    bool active = true;
    for (const auto& e : exprs) {
      const auto v = value_for("--cell", text, e, t, w, threads);
      if (!v || *v < 0) active = false;
      cell.push_back(v ? *v : -1);
    }
    Address a = kNoAddress;
    if (active) {
      std::uint32_t c[4] = {};
      for (std::size_t k = 0; k < cell.size(); ++k) {
        if (cell[k] >= w) {
          std::string shown;
          for (std::size_t q = 0; q < cell.size(); ++q) shown += (q ? ", " : "") + std::to_string(cell[q]);
          throw InputError("--cell: " + quote(std::string(text)) + " gives thread t = " + std::to_string(t) +
                           " the cell (" + shown + "), outside 0 .. w-1 = " + std::to_string(w - 1));
        }
        c[k] = static_cast<std::uint32_t>(cell[k]);
      }
      a = drawn.address(c);
      if (a > kMaxPosedAddress)
        throw InputError("-w: the " + std::to_string(exprs.size()) +
                         "D layout's addresses pass 16777215 at w = " + std::to_string(w) + "; choose a smaller w");
    }
    out.warps[t / uw].push_back(a);
    out.cells.push_back(active ? std::move(cell) : std::vector<std::int64_t>{});
  }
  out.posed = "thread t of " + std::to_string(threads) + " requests cell (" + std::string(text) + ")";
  out.layout = drawn.describe();
  return out;
}

PosedRequest pose_request(const AccessRequest& r) {
  PosedRequest out;
  MachineParams& m = out.machine;
  if (r.model == "dmm")
    m.model = ModelKind::Dmm;
  else if (r.model == "umm")
    m.model = ModelKind::Umm;
  else
    throw InputError("--model: must be dmm or umm (got " + quote(r.model) + ")");
  // CLI11 names an option by its long flag in a refused value's line; so do these.
  for (const auto& [spec, v] : {std::pair{access_width_param(), r.w}, std::pair{access_latency_param(), r.l}})
    if (const auto err = integer_error(v, spec))
      throw InputError(spec.flags.substr(spec.flags.rfind(',') + 1) + ": " + *err);
  m.w = static_cast<int>(r.w);
  m.l = static_cast<int>(r.l);
  if (auto err = m.validate()) throw InputError(*err);
  const bool warps = r.warp_texts || r.warp_values;
  const int ways = warps + r.addr.has_value() + r.cell.has_value();
  if (ways != 1)
    throw InputError("access: give the access one way: --warp (repeated), --addr EXPR, or --layout L --cell EXPRS");
  if (r.layout.has_value() != r.cell.has_value()) throw InputError("--layout and --cell go together");
  if (r.threads && warps) throw InputError("--threads: only with --addr or --cell (--warp gives the warps)");
  if (r.seed && !r.layout) throw InputError("--seed: only with --layout");
  if (!r.registers.empty() && !r.addr) throw InputError("--reg: only with --addr (registers name addresses there)");
  const ParamSpec threads_spec = integer_param("threads", "--threads", "threads of an --addr or --cell access", 1,
                                               static_cast<std::int64_t>(kMaxPosedThreads));
  if (r.threads)
    if (const auto err = integer_error(*r.threads, threads_spec)) throw InputError("--threads: " + *err);
  if (r.seed)
    if (const auto err = integer_error(*r.seed, seed_param())) throw InputError("--seed: " + *err);
  for (const auto& [spec, v] :
       {std::pair{access_element_bytes_param(), r.element_bytes}, std::pair{access_vector_param(), r.vector}})
    if (const auto err = integer_error(v, spec)) throw InputError(spec.flags + ": " + *err);
  out.shaped = pose_shape(static_cast<std::uint32_t>(r.element_bytes), static_cast<std::uint32_t>(r.vector), r.op);
  const std::uint64_t p = r.threads ? static_cast<std::uint64_t>(*r.threads) : static_cast<std::uint64_t>(m.w);
  if (r.warp_texts) {
    out.posed = pose_warps(*r.warp_texts, m.w);
  } else if (r.warp_values) {
    out.posed = pose_warps(*r.warp_values, m.w);
  } else if (r.addr) {
    std::vector<RegisterValues> regs;
    for (const auto& text : r.registers) regs.push_back(parse_register(text));
    out.posed = pose_addresses(*r.addr, m.w, p, regs);
  } else {
    out.posed = pose_cells(*r.layout, *r.cell, m.w, p, r.seed ? static_cast<std::uint64_t>(*r.seed) : 1);
  }
  check_vector_alignment(out.posed, out.shaped.shape);
  return out;
}

}  // namespace mmsim::teaching
