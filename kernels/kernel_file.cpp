#include "kernels/kernel_file.h"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>

#include "io/input_error.h"
#include "io/input_file.h"
#include "io/quote.h"
#include "report/json_reader.h"

namespace mmsim::kernels {

std::optional<AtomicOp> atomic_op_named(std::string_view name) {
  static const std::pair<const char*, AtomicOp> ops[] = {{"add", AtomicOp::Add},
                                                         {"min", AtomicOp::Min},
                                                         {"max", AtomicOp::Max},
                                                         {"exch", AtomicOp::Exchange},
                                                         {"cas", AtomicOp::CompareAndSwap},
                                                         {"increment", AtomicOp::Increment}};
  for (const auto& [word, op] : ops)
    if (name == word) return op;
  return std::nullopt;
}

namespace {

using report::JsonValue;

// Reads one place of the file (the machine, an array, a kernel, a step): every key must be known,
// and each value of its kind, or the file is refused naming the place and the rule.
class Place {
 public:
  Place(const JsonValue& v, std::string source, std::string where, std::initializer_list<const char*> keys)
      : v_(v), source_(std::move(source)), where_(std::move(where)) {
    if (!v.is_object()) fail("must be an object, not " + v.describe());
    for (const auto& member : v.members()) {
      const std::string& key = member.first;
      if (std::find_if(keys.begin(), keys.end(), [&](const char* k) { return key == k; }) == keys.end()) {
        std::string known;
        for (const char* k : keys) known += (known.empty() ? "" : ", ") + std::string(k);
        fail("unknown key " + quote(key, 32) + " (keys: " + known + ")");
      }
    }
  }

  [[noreturn]] void fail(const std::string& rule) const {
    const std::string src = quote(source_, 60);
    throw InputError(src.substr(1, src.size() - 2) + ": " + where_ + ": " + rule);
  }
  bool has(const char* key) const { return v_.find(key) != nullptr; }
  const JsonValue* find(const char* key) const { return v_.find(key); }

  std::string text(const char* key, const std::string& fallback = {}, bool required = false) const {
    const JsonValue* x = v_.find(key);
    if (!x) {
      if (required) fail("needs " + std::string(key));
      return fallback;
    }
    if (!x->is_string()) fail(std::string(key) + " must be a string, not " + x->describe());
    if (x->text().size() > 4096) fail(std::string(key) + " is longer than 4096 characters");
    return x->text();
  }
  std::int64_t integer(const char* key, std::int64_t lo, std::int64_t hi, std::int64_t fallback,
                       bool required = false) const {
    const JsonValue* x = v_.find(key);
    if (!x) {
      if (required) fail("needs " + std::string(key));
      return fallback;
    }
    const auto n = x->is_number() ? x->integer() : std::nullopt;
    if (!n || *n < lo || *n > hi)
      fail(std::string(key) + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]" +
           (x->is_number() ? " (got " + quote(x->text(), 24) + ")" : ", not " + x->describe()));
    return *n;
  }

 private:
  const JsonValue& v_;
  std::string source_, where_;
};

Space space_of(const Place& at, const std::string& s) {
  if (s == "global") return Space::Global;
  if (s == "shared") return Space::Shared;
  at.fail("space must be global or shared (got " + quote(s, 16) + ")");
}

AtomicOp atomic_of(const Place& at, const std::string& s) {
  if (const auto op = atomic_op_named(s)) return *op;
  at.fail("op must be add, min, max, exch, cas or increment (got " + quote(s, 16) + ")");
}

MachineParams read_machine(const JsonValue* v, const std::string& source) {
  MachineParams m;  // the HMM with mmsim's defaults when the file gives no machine
  if (!v) return m;
  const Place at(*v, source, "machine", {"model", "w", "l", "L", "k", "extensions"});
  const std::string model = at.text("model", "hmm");
  const auto kind = model_from_name(model);
  if (!kind) at.fail("model must be dmm, umm or hmm (got " + quote(model, 16) + ")");
  m.model = *kind;
  m.w = static_cast<int>(at.integer("w", 1, 1024, m.w));
  m.l = static_cast<int>(at.integer("l", 1, 1 << 20, m.l));
  m.L = static_cast<int>(at.integer("L", 1, 1 << 20, m.L));
  m.k = static_cast<int>(at.integer("k", 1, 4096, m.k));
  if (const JsonValue* ext = at.find("extensions")) {
    if (!ext->is_array()) at.fail("extensions must be a list of widths, atomics");
    for (const JsonValue& e : ext->items()) {
      if (e.is_string() && e.text() == "widths")
        m.extensions.widths = true;
      else if (e.is_string() && e.text() == "atomics")
        m.extensions.atomics = true;
      else
        at.fail("extensions are widths and atomics (got " + (e.is_string() ? quote(e.text(), 16) : e.describe()) + ")");
    }
  }
  return m;
}

ArraySpec read_array(const JsonValue& v, std::size_t index, const std::string& source) {
  const Place at(v, source, "array " + std::to_string(index), {"name", "space", "size", "element_bytes", "init"});
  ArraySpec a;
  a.name = at.text("name", "", true);
  const Place named(v, source, "array " + quote(a.name, 32), {"name", "space", "size", "element_bytes", "init"});
  a.space = space_of(named, named.text("space", "global"));
  a.size = static_cast<std::uint64_t>(named.integer("size", 1, static_cast<std::int64_t>(kMaxArrayElements), 0, true));
  a.element_bytes = static_cast<std::uint32_t>(named.integer("element_bytes", 1, 16, 4));
  if (const JsonValue* init = named.find("init")) {
    if (init->is_string() && init->text() == "zeros") {
      a.init = ArrayInit::Zeros;
    } else if (init->is_string() && init->text() == "iota") {
      a.init = ArrayInit::Iota;
    } else if (init->is_object()) {
      const Place r(*init, source, "array " + quote(a.name, 32) + ", init", {"random_below", "seed"});
      a.init = ArrayInit::Random;
      a.random_below = static_cast<std::uint64_t>(r.integer("random_below", 1, std::int64_t{1} << 32, 0));
      a.seed = static_cast<std::uint64_t>(r.integer("seed", 0, INT64_MAX, 1));
    } else if (init->is_array()) {
      a.init = ArrayInit::Values;
      for (const JsonValue& x : init->items()) {
        const auto n = x.is_number() ? x.integer() : std::nullopt;
        if (!n || *n < 0 || *n > 0xFFFFFFFFll) named.fail("init values must be integers in [0, 2^32 - 1]");
        a.values.push_back(static_cast<Word>(*n));
      }
    } else {
      named.fail("init must be \"zeros\", \"iota\", {\"random_below\": N, \"seed\": S} or a list of values");
    }
  }
  return a;
}

StepSpec read_step(const JsonValue& v, const std::string& where, const std::string& source) {
  if (v.is_string() && v.text() == "barrier") return StepSpec{.kind = StepKind::Barrier, .name = "barrier"};
  const Place at(
      v, source, where,
      {"read", "write", "atomic", "set", "name", "address", "value", "reg", "vector", "op", "result", "instructions"});
  StepSpec s;
  const int kinds = at.has("read") + at.has("write") + at.has("atomic") + at.has("set");
  if (kinds != 1)
    at.fail(
        "a step is one of {\"read\": ARRAY}, {\"write\": ARRAY}, {\"atomic\": ARRAY}, {\"set\": REG} or \"barrier\"");
  s.name = at.text("name");
  s.instructions = static_cast<std::uint32_t>(at.integer("instructions", 0, kMaxStepInstructions, 0));
  if (at.has("set")) {
    s.kind = StepKind::Set;
    s.reg = static_cast<int>(at.integer("set", 0, 255, 0));
    s.value = at.text("value", "", true);
    return s;
  }
  s.kind = at.has("read") ? StepKind::Read : at.has("write") ? StepKind::Write : StepKind::Atomic;
  s.array = at.text(s.kind == StepKind::Read ? "read" : s.kind == StepKind::Write ? "write" : "atomic");
  s.address = at.text("address", "", true);
  s.reg = static_cast<int>(at.integer("reg", 0, 255, 0));
  s.vector = static_cast<std::uint32_t>(at.integer("vector", 1, 4, 1));
  if (s.kind == StepKind::Atomic) {
    s.atomic = atomic_of(at, at.text("op", "", true));
    s.result = static_cast<int>(at.integer("result", -1, 255, -1));
  } else if (at.has("op") || at.has("result")) {
    at.fail("op and result belong to an atomic step");
  }
  return s;
}

KernelSpec read_kernel(const JsonValue& v, std::size_t index, const std::string& source) {
  static const std::initializer_list<const char*> keys = {
      "name", "blocks", "threads_per_block", "registers", "register_names", "resident_blocks_per_dmm", "steps"};
  const Place first(v, source, "kernel " + std::to_string(index), keys);
  KernelSpec k;
  k.name = first.text("name", "", true);
  const std::string kw = "kernel " + quote(k.name, 32);
  const Place at(v, source, kw, keys);
  k.blocks = static_cast<std::uint64_t>(at.integer("blocks", 1, std::int64_t{1} << 28, 1));
  k.threads_per_block = static_cast<std::uint32_t>(at.integer("threads_per_block", 1, 1 << 20, 32));
  k.registers = static_cast<int>(at.integer("registers", 1, 256, 1));
  k.resident_blocks_per_dmm = static_cast<std::uint32_t>(at.integer("resident_blocks_per_dmm", 0, 1 << 20, 0));
  if (const JsonValue* names = at.find("register_names")) {
    if (!names->is_array()) at.fail("register_names must be a list of names, r0's first");
    for (const JsonValue& n : names->items()) {
      if (!n.is_string() || n.text().empty() || n.text().size() > 32)
        at.fail("register_names holds names of 1 to 32 characters");
      k.register_names.push_back(n.text());
    }
  }
  const JsonValue* steps = at.find("steps");
  if (!steps || !steps->is_array()) at.fail("needs steps, a list");
  if (steps->items().size() > kMaxSteps) at.fail("more than " + std::to_string(kMaxSteps) + " steps");
  for (std::size_t s = 0; s < steps->items().size(); ++s)
    k.steps.push_back(read_step(steps->items()[s], kw + ", step " + std::to_string(s), source));
  return k;
}

}  // namespace

ProgramSpec parse_kernel_file(std::string_view text, const std::string& source) {
  JsonValue doc;
  const std::string src = quote(source, 60);
  try {
    doc = report::parse_json(text);
  } catch (const std::invalid_argument& e) {
    throw InputError(src.substr(1, src.size() - 2) + ": not JSON: " + e.what());
  }
  return read_kernel_description(doc, source);
}

ProgramSpec read_kernel_description(const JsonValue& doc, const std::string& source) {
  const Place top(doc, source, "the file", {"machine", "arrays", "kernels"});
  ProgramSpec p;
  p.source = source;
  p.machine = read_machine(doc.find("machine"), source);
  const JsonValue* arrays = doc.find("arrays");
  if (!arrays || !arrays->is_array()) top.fail("needs arrays, a list");
  for (std::size_t i = 0; i < arrays->items().size() && i <= kMaxArrays; ++i)
    p.arrays.push_back(read_array(arrays->items()[i], i, source));
  const JsonValue* kernels = doc.find("kernels");
  if (!kernels || !kernels->is_array()) top.fail("needs kernels, a list");
  for (std::size_t i = 0; i < kernels->items().size(); ++i)
    p.kernels.push_back(read_kernel(kernels->items()[i], i, source));
  validate(p);
  return p;
}

ProgramSpec read_kernel_file(const std::string& option, const std::string& path) {
  InputFile file(option, path, report::kMaxJsonBytes, "a kernel file may have");
  return parse_kernel_file(file.read_all(), path);
}

}  // namespace mmsim::kernels
