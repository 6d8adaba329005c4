#include "explorer/explorer_api.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>

#include "algorithms/params.h"
#include "algorithms/registry.h"
#include "algorithms/registry_output.h"
#include "algorithms/run_output.h"
#include "io/input_error.h"
#include "teaching/access.h"
#include "teaching/layout_view.h"
#include "teaching/posed_access.h"
#include "teaching/trace_file.h"
#include "teaching/trace_view.h"

namespace mmsim::explorer {

namespace {

using report::Json;

std::string error_json(const std::string& message) {
  Json j = Json::object();
  j.set("error", message);
  return j.dump(0);
}

// Runs `f` and turns a refusal into {"error": message}: the page shows the command line's one line.
// Anything else is a bug, said as such (the page must never be left blank).
template <typename F>
std::string answer(F&& f) {
  try {
    return f().dump(0);
  } catch (const InputError& e) {
    return error_json(e.what());
  } catch (const std::exception& e) {
    return error_json(std::string("internal error (please report it): ") + e.what());
  }
}

// One integer as typed, with the one strict parser and the option's rule; `spec` names the option.
std::int64_t integer(const ParamSpec& spec, const std::string& text) {
  return std::get<std::int64_t>(parse_value(spec, text));
}

const ParamSpec& machine_spec(ModelKind model, const std::string& name) {
  static const auto dmm = machine_params(ModelKind::Dmm);
  static const auto umm = machine_params(ModelKind::Umm);
  for (const auto& s : model == ModelKind::Dmm ? dmm : umm)
    if (s.name == name) return s;
  throw std::logic_error("no machine parameter " + name);
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (true) {
    const auto at = text.find(sep, from);
    out.push_back(text.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) return out;
    from = at + 1;
  }
}

// A name or value of the run's query as the page encodes it (encodeURIComponent): %XX is the byte
// XX; a '%' not followed by two hex digits is refused, so that nothing is guessed.
std::string percent_decoded(const std::string& text) {
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    const int hi = i + 2 < text.size() ? hex(text[i + 1]) : -1, lo = hi >= 0 ? hex(text[i + 2]) : -1;
    if (hi < 0 || lo < 0) throw InputError("query: " + quote(text) + " has a '%' that is not %XX");
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

// The run's own slots, drawn as `mmsim trace` draws its CSV.
Json trace_of(const RunReport& r, const std::string& label, Json& svgs) {
  const auto t = teaching::trace_of(r.stats, r.trace);
  svgs.set(label, teaching::trace_svg(t, label, 900));
  return teaching::trace_json(t, label);
}

}  // namespace

std::string access(const std::string& model, const std::string& w, const std::string& l, const std::string& warps,
                   const std::string& addr, const std::string& layout, const std::string& cell,
                   const std::string& threads, const std::string& seed, const std::string& element_bytes,
                   const std::string& vector, const std::string& op, const std::string& registers) {
  return answer([&] {
    // Checked first, as the command line's parser does before the command runs.
    const auto bytes = element_bytes.empty() ? 4 : integer(teaching::access_element_bytes_param(), element_bytes);
    const auto elements = vector.empty() ? 1 : integer(teaching::access_vector_param(), vector);
    MachineParams m;
    if (model == "dmm")
      m.model = ModelKind::Dmm;
    else if (model == "umm")
      m.model = ModelKind::Umm;
    else
      throw InputError("--model: must be dmm or umm (got " + quote(model) + ")");
    m.w = static_cast<int>(integer(machine_spec(m.model, "w"), w));
    m.l = static_cast<int>(integer(machine_spec(m.model, "l"), l));
    if (auto err = m.validate()) throw InputError(*err);
    const int ways = !warps.empty() + !addr.empty() + !cell.empty();
    if (ways != 1)
      throw InputError("access: give the access one way: warps, an address expression, or a layout's cells");
    if (!layout.empty() != !cell.empty()) throw InputError("--layout and --cell go together");
    if (!threads.empty() && !warps.empty())
      throw InputError("--threads: only with --addr or --cell (--warp gives the warps)");
    if (!seed.empty() && layout.empty()) throw InputError("--seed: only with --layout");
    if (!registers.empty() && addr.empty())
      throw InputError("--reg: only with --addr (registers name addresses there)");
    const teaching::PosedShape shaped = teaching::pose_shape(
        static_cast<std::uint32_t>(bytes), static_cast<std::uint32_t>(elements), op.empty() ? "read" : op);
    const auto p =
        threads.empty()
            ? static_cast<std::uint64_t>(m.w)
            : static_cast<std::uint64_t>(integer(integer_param("threads", "--threads", "threads", 1,
                                                               static_cast<std::int64_t>(teaching::kMaxPosedThreads)),
                                                 threads));
    const auto s = seed.empty() ? std::uint64_t{1} : static_cast<std::uint64_t>(integer(seed_param(), seed));
    teaching::PosedAccess posed;
    if (!warps.empty())
      posed = teaching::pose_warps(split(warps, ';'), m.w);
    else if (!addr.empty()) {
      std::vector<teaching::RegisterValues> regs;
      if (!registers.empty())
        for (const auto& r : split(registers, ';')) regs.push_back(teaching::parse_register(r));
      posed = teaching::pose_addresses(addr, m.w, p, regs);
    } else
      posed = teaching::pose_cells(layout, cell, m.w, p, s);
    teaching::check_vector_alignment(posed, shaped.shape);
    auto result = teaching::simulate_access(m, posed.warps, posed.cells, shaped.shape, shaped.op);
    result.posed = posed.posed;
    result.layout = posed.layout;
    return teaching::to_json(result);
  });
}

std::string layout(const std::string& name, const std::string& w, const std::string& seed) {
  return answer([&] {
    const auto width = integer(integer_param("w", "-w,--width", "width", 2, kMaxLayoutWidth), w);
    const auto s = integer(seed_param(), seed.empty() ? "1" : seed);
    const teaching::DrawnLayout drawn(name, 2, static_cast<int>(width), static_cast<std::uint64_t>(s));
    Json out = teaching::layout_json(drawn);
    // Each access exactly as `mmsim access --layout L --cell EXPR` poses it, so the page's
    // congestion is the command line's (NMI Sect. III: contiguous, stride and diagonal).
    MachineParams m;
    m.model = ModelKind::Dmm;
    m.w = static_cast<int>(width);
    m.l = 1;
    Json accesses = Json::object();
    const std::pair<const char*, const char*> kinds[] = {
        {"row", "%d, t"}, {"column", "t, %d"}, {"diagonal", "t, (t + %d) %% w"}};
    for (const auto& [kind, pattern] : kinds) {
      Json list = Json::array();
      for (int index = 0; index < width; ++index) {
        char expr[40];
        std::snprintf(expr, sizeof expr, pattern, index);
        const auto posed =
            teaching::pose_cells(name, expr, m.w, static_cast<std::uint64_t>(width), static_cast<std::uint64_t>(s));
        const auto r = teaching::simulate_access(m, posed.warps, posed.cells);
        Json a = Json::object();
        a.set("index", index);
        a.set("cell", std::string(expr));
        a.set("congestion", r.views.at(0).congestion);
        Json banks = Json::array();
        for (auto b : r.views.at(0).congested_banks) banks.push(static_cast<unsigned long long>(b));
        a.set("congested_banks", std::move(banks));
        list.push(std::move(a));
      }
      accesses.set(kind, std::move(list));
    }
    out.set("accesses", std::move(accesses));
    return out;
  });
}

std::string algorithms() {
  return answer([] {
    Json list = Json::array();
    for (const auto& a : mmsim::algorithms()) list.push(mmsim::to_json(a));
    return list;
  });
}

std::string run(const std::string& name, const std::string& query) {
  return answer([&] {
    const AlgorithmEntry* entry = find_algorithm(name);
    if (!entry) throw InputError("algorithm: unknown algorithm " + quote(name) + " (see mmsim list)");
    std::map<std::string, std::string> given;
    if (!query.empty())
      for (const auto& pair : split(query, '&')) {
        const auto eq = pair.find('=');
        if (eq == std::string::npos || eq == 0)
          throw InputError(name + ": parameter " + quote(pair) + " is not name=value");
        given[percent_decoded(pair.substr(0, eq))] = percent_decoded(pair.substr(eq + 1));
      }
    // A page reads no files: --perm-file, --schedule, --matrix and the like are the command line's.
    for (const auto& spec : entry->params)
      if ((spec.kind == ParamKind::Text || spec.kind == ParamKind::Matrix) && given.count(spec.name))
        throw InputError(name + ": " + spec.flag() + " names a file, which the page cannot read; run mmsim for it");
    // The URL's text, parsed once here into typed values.
    const ParamValues values = parse_params(*entry, given);
    EngineOptions engine;
    engine.threads = 1;  // the page has one thread; the report is the same for every count
    engine.trace = true;
    const RunRequest req = check_request(*entry, values, engine);
    if (const std::uint64_t cells = run_size(*entry, req).cells; cells > kMaxRunCells)
      throw InputError(name + ": " + std::to_string(cells) + " cells are more than the " +
                       std::to_string(kMaxRunCells) + " the page runs; use mmsim run for larger runs");
    Json out = Json::object();
    Json traces = Json::object();
    Json svgs = Json::object();
    const RunReport sync = run_algorithm(*entry, values, engine);
    out.set("round_synchronous", mmsim::to_json(sync));
    traces.set("round_synchronous", trace_of(sync, "round_synchronous", svgs));
    if (entry->asynchronous) {
      engine.execution = Execution::Asynchronous;
      const RunReport async = run_algorithm(*entry, values, engine);
      out.set("asynchronous", mmsim::to_json(async));
      traces.set("asynchronous", trace_of(async, "asynchronous", svgs));
    } else {
      out.set("asynchronous", nullptr);
    }
    out.set("traces", std::move(traces));
    out.set("svgs", std::move(svgs));
    return out;
  });
}

std::string trace(const std::string& csv, const std::string& file) {
  return answer([&] {
    std::istringstream in(csv);
    const auto t = teaching::read_trace(in, file);
    Json out = teaching::trace_json(t, file);
    out.set("svg", teaching::trace_svg(t, file, 900));
    return out;
  });
}

}  // namespace mmsim::explorer
