#include "kernels/kernel_spec.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "io/input_error.h"
#include "io/quote.h"
#include "io/work_bounds.h"
#include "sim/random.h"

namespace mmsim::kernels {

namespace {

using teaching::Expression;
using teaching::ExpressionError;

// A user's text for a message: cut short, control bytes shown as '?', without the quotes.
std::string shown(const std::string& text, std::size_t limit) {
  const std::string q = quote(text, limit);
  return q.substr(1, q.size() - 2);
}

std::string step_label(const StepSpec& s, std::size_t index) {
  static const char* kinds[] = {"read", "write", "atomic", "set", "barrier"};
  const std::string what =
      s.name.empty() ? std::string(kinds[static_cast<int>(s.kind)]) + (s.array.empty() ? "" : " " + s.array) : s.name;
  return "step " + std::to_string(index) + " (" + shown(what, 40) + ")";
}

// "FILE: " with the source quoted (control bytes shown as ?), then where, then the rule.
[[noreturn]] void fail_at(const ProgramSpec& p, const std::string& where, const std::string& rule) {
  throw InputError(shown(p.source.empty() ? std::string("kernel") : p.source, 60) + ": " + where +
                   (where.empty() ? "" : ": ") + rule);
}

Expression parse_in(const ProgramSpec& p, const std::string& where, const std::string& text,
                    const std::vector<std::string>& registers) {
  try {
    return Expression::parse(text, registers);
  } catch (const ExpressionError& e) {
    fail_at(p, where, teaching::describe(e, text.substr(0, 120)));
  }
}

bool allowed_bytes(std::uint32_t e) { return e == 1 || e == 2 || e == 4 || e == 8 || e == 16; }

// A step's explicit addresses: one a thread of the launch, each inside its array (the engine's
// rule, checked before the run so that the message names the step), and the bytes a thread moves.
void check_explicit(const ProgramSpec& p, const std::string& where, const KernelSpec& k, const ArraySpec& a,
                    const StepSpec& st) {
  if (!st.address.empty()) fail_at(p, where, "gives both an address expression and explicit addresses");
  const std::uint64_t threads = k.blocks * k.threads_per_block;
  if (st.addresses->index.size() != threads)
    fail_at(p, where,
            "has " + std::to_string(st.addresses->index.size()) + " explicit addresses for " + std::to_string(threads) +
                " threads");
  const std::uint64_t vector = st.vector == 0 ? 1 : st.vector;
  for (std::uint64_t t = 0; t < threads; ++t) {
    const std::uint32_t i = st.addresses->index[t];
    if (i == ExplicitAddresses::kInactive) continue;
    if (i + vector > a.size)
      fail_at(p, where,
              "thread " + std::to_string(t) + " addresses " + std::to_string(i) + " outside " + shown(a.name, 32) +
                  "[" + std::to_string(a.size) + "]");
  }
  if (st.access_bytes != 0 && st.access_bytes != a.element_bytes * vector)
    fail_at(p, where,
            "moves " + std::to_string(st.access_bytes) + " bytes a thread; " + shown(a.name, 32) + "'s elements are " +
                std::to_string(a.element_bytes) + " bytes" + (vector > 1 ? " x " + std::to_string(vector) : ""));
}

// The engine's instruction for a read, write or atomic step whose addresses `address` gives.
Access access_of(const StepSpec& st, ArrayId array, AddressFn address) {
  return Access{.name = st.name.empty() ? std::string(st.kind == StepKind::Read    ? "read "
                                                      : st.kind == StepKind::Write ? "write "
                                                                                   : "atomic ") +
                                              st.array
                                        : st.name,
                .op = st.kind == StepKind::Read    ? Op::Read
                      : st.kind == StepKind::Write ? Op::Write
                                                   : Op::Atomic,
                .array = array,
                .reg = st.reg,
                .address = std::move(address),
                .vector = st.vector,
                .atomic = st.atomic,
                .result = st.result};
}

}  // namespace

void validate(const ProgramSpec& p) {
  if (auto err = p.machine.validate()) fail_at(p, "machine", *err);
  if (p.arrays.empty()) fail_at(p, "", "no array");
  if (p.arrays.size() > kMaxArrays) fail_at(p, "", "more than " + std::to_string(kMaxArrays) + " arrays");
  if (p.kernels.empty()) fail_at(p, "", "no kernel");
  const bool has_shared = p.machine.model != ModelKind::Umm, has_global = p.machine.model != ModelKind::Dmm;
  std::map<std::string, const ArraySpec*> arrays;
  std::uint64_t cells = 0;
  for (const ArraySpec& a : p.arrays) {
    const std::string where = "array " + quote(a.name, 32);
    if (a.name.empty()) fail_at(p, "array", "has no name");
    if (!arrays.emplace(a.name, &a).second) fail_at(p, where, "a second array of that name");
    if (a.size == 0 || a.size > kMaxArrayElements) fail_at(p, where, "size must be in [1, 2^28]");
    if (!allowed_bytes(a.element_bytes)) fail_at(p, where, "element_bytes must be 1, 2, 4, 8 or 16");
    if (a.element_bytes != 4 && !p.machine.extensions.widths)
      fail_at(p, where, "elements of other than 4 bytes need the widths extension (machine extensions)");
    if (a.space == Space::Shared && !has_shared)
      fail_at(p, where, "a shared array on a UMM, which has no shared memory");
    if (a.space == Space::Global && !has_global)
      fail_at(p, where, "a global array on a DMM, which has no global memory");
    if (a.init == ArrayInit::Values && a.values.size() != a.size)
      fail_at(p, where, "has " + std::to_string(a.values.size()) + " values for size " + std::to_string(a.size));
    if (a.space == Space::Shared && a.init != ArrayInit::Zeros)
      fail_at(p, where, "a shared array starts empty (zeros); a kernel fills it");
    cells += a.size;
  }
  std::set<std::string> names;
  for (const KernelSpec& k : p.kernels) {
    const std::string kw = "kernel " + quote(k.name, 32);
    if (k.name.empty()) fail_at(p, "kernel", "has no name");
    if (!names.insert(k.name).second) fail_at(p, kw, "a second kernel of that name");
    const auto w = static_cast<std::uint32_t>(p.machine.w);
    if (k.threads_per_block == 0 || k.threads_per_block % w != 0)
      fail_at(p, kw, "threads_per_block must be a positive multiple of w = " + std::to_string(w));
    if (k.blocks == 0 || k.blocks > kMaxKernelThreads / k.threads_per_block)
      fail_at(p, kw, "blocks x threads_per_block must be in [1, 2^28]");
    if (k.registers < 1 || k.registers > Expression::kMaxRegisters) fail_at(p, kw, "registers must be in [1, 256]");
    if (static_cast<int>(k.register_names.size()) > k.registers)
      fail_at(p, kw, "names more registers than its " + std::to_string(k.registers));
    for (std::size_t r = 0; r < k.register_names.size(); ++r) {
      const std::string& name = k.register_names[r];
      if (const std::string why = teaching::register_name_problem(name); !why.empty())
        fail_at(p, kw, "register name " + quote(name, 32) + ": " + why);
      if (std::find(k.register_names.begin(), k.register_names.begin() + static_cast<std::ptrdiff_t>(r), name) !=
          k.register_names.begin() + static_cast<std::ptrdiff_t>(r))
        fail_at(p, kw, "register name " + quote(name, 32) + " given twice");
    }
    if (k.resident_blocks_per_dmm > k.blocks) fail_at(p, kw, "resident_blocks_per_dmm must be in [0, blocks]");
    if (k.steps.empty()) fail_at(p, kw, "no step");
    if (k.steps.size() > kMaxSteps) fail_at(p, kw, "more than " + std::to_string(kMaxSteps) + " steps");
    for (std::size_t s = 0; s < k.steps.size(); ++s) {
      const StepSpec& st = k.steps[s];
      const std::string where = kw + ", " + step_label(st, s);
      const auto reg_ok = [&](int r, int span, const char* what) {
        if (r < 0 || r + span > k.registers)
          fail_at(p, where,
                  std::string(what) + " r" + std::to_string(r) +
                      (span > 1 ? ".. r" + std::to_string(r + span - 1) : "") + " is past the kernel's " +
                      std::to_string(k.registers) + " registers");
      };
      if (st.kind == StepKind::Barrier) continue;
      if (st.kind == StepKind::Set) {
        reg_ok(st.reg, 1, "register");
        const Expression e = parse_in(p, where, st.value, k.register_names);
        if (e.registers_used() > k.registers)
          fail_at(p, where, "value names r" + std::to_string(e.registers_used() - 1) + ", past the kernel's registers");
        continue;
      }
      const auto it = arrays.find(st.array);
      if (it == arrays.end()) fail_at(p, where, "no array named " + quote(st.array, 32));
      const ArraySpec& a = *it->second;
      if (st.addresses) {
        check_explicit(p, where, k, a, st);
      } else {
        const Expression e = parse_in(p, where, st.address, k.register_names);
        if (e.registers_used() > k.registers)
          fail_at(p, where,
                  "address names r" + std::to_string(e.registers_used() - 1) + ", past the kernel's " +
                      std::to_string(k.registers) + " registers");
      }
      if (st.vector != 1 && st.vector != 2 && st.vector != 4) fail_at(p, where, "vector must be 1, 2 or 4");
      if (st.vector != 1 && !p.machine.extensions.widths)
        fail_at(p, where, "a vector access needs the widths extension (machine extensions)");
      if (a.element_bytes * st.vector > 16) fail_at(p, where, "a thread moves at most 16 bytes (element x vector)");
      if (st.kind == StepKind::Atomic) {
        if (st.atomic == AtomicOp::None) fail_at(p, where, "an atomic step names its update (add, min, max, ...)");
        if (st.vector != 1) fail_at(p, where, "an atomic updates one element a thread");
        if (a.element_bytes != 4) fail_at(p, where, "an atomic updates a 4-byte word");
        reg_ok(st.reg, st.atomic == AtomicOp::CompareAndSwap ? 2 : 1, "operand");
        if (st.result != -1) reg_ok(st.result, 1, "result");
      } else {
        if (st.atomic != AtomicOp::None) fail_at(p, where, "only an atomic step names an update");
        reg_ok(st.reg, static_cast<int>(st.vector), "register");
      }
    }
  }
  // Memory: the arrays' cells (shared ones once per block of the largest grid) and the registers.
  std::uint64_t largest = 0;
  for (const KernelSpec& k : p.kernels) {
    std::uint64_t shared = 0;
    for (const ArraySpec& a : p.arrays)
      if (a.space == Space::Shared) shared += a.size * k.blocks;
    largest = std::max(largest, shared + k.blocks * k.threads_per_block * static_cast<std::uint64_t>(k.registers));
  }
  check_memory(p.source.empty() ? "kernel" : p.source, "its arrays and registers", (cells + largest) * 8);
}

ProgramRun run_program(const ProgramSpec& p, const EngineOptions& options) {
  validate(p);
  const Machine machine(p.machine);
  Engine engine(machine.view(), options);
  std::map<std::string, ArrayId> ids;
  for (const ArraySpec& a : p.arrays) {
    const ArrayId id =
        engine.add_array({.name = a.name, .space = a.space, .size = a.size, .element_bytes = a.element_bytes});
    ids[a.name] = id;
    if (a.space != Space::Global) continue;
    auto cells = engine.global(id);
    switch (a.init) {
      case ArrayInit::Zeros:
        break;
      case ArrayInit::Iota:
        for (std::uint64_t i = 0; i < a.size; ++i) cells[i] = static_cast<Word>(i);
        break;
      case ArrayInit::Random: {
        Rng rng(a.seed);
        for (auto& c : cells) c = static_cast<Word>(a.random_below ? rng.below(a.random_below) : rng.next());
        break;
      }
      case ArrayInit::Values:
        std::copy(a.values.begin(), a.values.end(), cells.begin());
        break;
    }
  }
  const auto w = static_cast<std::int64_t>(p.machine.w);
  for (const KernelSpec& k : p.kernels) {
    Kernel kernel{.name = k.name,
                  .blocks = k.blocks,
                  .threads_per_block = k.threads_per_block,
                  .registers = k.registers,
                  .steps = {},
                  .resident_blocks_per_dmm = k.resident_blocks_per_dmm};
    const auto threads = static_cast<std::int64_t>(k.blocks * k.threads_per_block);
    const auto tpb = static_cast<std::int64_t>(k.threads_per_block);
    for (std::size_t s = 0; s < k.steps.size(); ++s) {
      const StepSpec& st = k.steps[s];
      const std::string where = "kernel " + quote(k.name, 32) + ", " + step_label(st, s);
      if (st.kind == StepKind::Barrier) {
        kernel.steps.emplace_back(BlockBarrier{});
        continue;
      }
      if (st.addresses) {
        kernel.steps.emplace_back(access_of(st, ids.at(st.array), [table = st.addresses](const Thread& t) {
          const std::uint32_t i = table->index[t.id()];
          return i == ExplicitAddresses::kInactive ? kNoAddress : static_cast<Address>(i);
        }));
        continue;
      }
      const Expression e = Expression::parse(st.kind == StepKind::Set ? st.value : st.address, k.register_names);
      const int used = e.registers_used();
      // The expression's value for one thread: its index, block and the registers it names.
      const auto eval = [e, used, w, threads, tpb, &p, where](const Thread& t) -> std::optional<std::int64_t> {
        std::int64_t regs[Expression::kMaxRegisters];
        for (int r = 0; r < used; ++r) regs[r] = static_cast<std::int64_t>(t.reg(r));
        try {
          return e.evaluate({.t = static_cast<std::int64_t>(t.id()),
                             .w = w,
                             .p = threads,
                             .block = static_cast<std::int64_t>(t.block()),
                             .local = static_cast<std::int64_t>(t.local()),
                             .tpb = tpb,
                             .registers = regs,
                             .register_count = used});
        } catch (const ExpressionError& err) {
          fail_at(p, where, std::string(err.what()) + " (thread " + std::to_string(t.id()) + ")");
        }
      };
      if (st.kind == StepKind::Set) {
        kernel.steps.emplace_back(Compute{[eval, r = st.reg](const Thread& t) {
          const auto v = eval(t);
          t.set(r, static_cast<Word>(v ? *v : 0));
        }});
        continue;
      }
      kernel.steps.emplace_back(access_of(st, ids.at(st.array), [eval](const Thread& t) {
        const auto v = eval(t);
        return v && *v >= 0 ? static_cast<Address>(*v) : kNoAddress;
      }));
    }
    try {
      engine.launch(kernel);
    } catch (const std::logic_error& e) {
      // The engine's words for an address outside its array, from a user's expression: bad input;
      // the engine pastes the kernel's, the step's and the array's names whole.
      std::vector<std::string> names{k.name};
      for (const auto& st : k.steps) names.push_back(st.name);
      for (const auto& a : p.arrays) names.push_back(a.name);
      fail_at(p, "", with_names_shown(e.what(), names));
    }
  }
  ProgramRun run;
  run.stats = engine.stats();
  for (const ArraySpec& a : p.arrays)
    if (a.space == Space::Global) {
      const auto cells = engine.global(ids.at(a.name));
      run.arrays.emplace_back(a.name, std::vector<Word>(cells.begin(), cells.end()));
    }
  return run;
}

}  // namespace mmsim::kernels
