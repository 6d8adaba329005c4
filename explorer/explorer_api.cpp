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
#include "kernels/kernel_file.h"
#include "kernels/kernel_report.h"
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

// Px of time axis in the page's trace pictures: the page draws them at its full width, so their
// 12-px text shows larger (about 17 px on a 1400-px page), as a projector needs.
constexpr int kTraceAxisPx = 760;

}  // namespace

std::string access(const std::string& model, const std::string& w, const std::string& l, const std::string& warps,
                   const std::string& addr, const std::string& layout, const std::string& cell,
                   const std::string& threads, const std::string& seed, const std::string& element_bytes,
                   const std::string& vector, const std::string& op, const std::string& registers,
                   const std::string& tile_warp) {
  return answer([&] {
    // The typed texts, each read by its option's rule; then the command line's own checks
    // (teaching::pose_request), so that the page refuses what `mmsim access` refuses, in its words.
    teaching::AccessRequest r;
    r.model = model;
    r.w = integer(teaching::access_width_param(), w);
    r.l = integer(teaching::access_latency_param(), l);
    if (!warps.empty()) r.warp_texts = split(warps, ';');
    if (!addr.empty()) r.addr = addr;
    if (!layout.empty()) r.layout = layout;
    if (!cell.empty()) r.cell = cell;
    if (!threads.empty())
      r.threads = integer(
          integer_param("threads", "--threads", "threads", 1, static_cast<std::int64_t>(teaching::kMaxPosedThreads)),
          threads);
    if (!seed.empty()) r.seed = integer(seed_param(), seed);
    if (!element_bytes.empty()) r.element_bytes = integer(teaching::access_element_bytes_param(), element_bytes);
    if (!vector.empty()) r.vector = integer(teaching::access_vector_param(), vector);
    if (!op.empty()) r.op = op;
    if (!registers.empty()) r.registers = split(registers, ';');
    if (!tile_warp.empty() && layout.empty())
      throw InputError("--tile-warp: only with --layout (the tile view draws the layout's matrix)");
    const teaching::PosedRequest request = teaching::pose_request(r);
    const teaching::PosedAccess& posed = request.posed;
    auto result =
        teaching::simulate_access(request.machine, posed.warps, posed.cells, request.shaped.shape, request.shaped.op);
    result.posed = posed.posed;
    result.layout = posed.layout;
    Json out = teaching::to_json(result);
    // The tile view of a w x w matrix's access, as `mmsim access --layout L --cell E --svg F` draws
    // it; a matrix wider than kMaxLayoutWidth is too large a picture for a page (null).
    const auto warp = tile_warp.empty() ? std::int64_t{0}
                                        : integer(integer_param("tile_warp", "--tile-warp", "warp", 0,
                                                                static_cast<std::int64_t>(teaching::kMaxPosedThreads)),
                                                  tile_warp);
    const int width = request.machine.w;
    const bool matrix = !posed.cells.empty() && posed.cells.front().size() == 2;
    if (!layout.empty() && matrix && width > kMaxLayoutWidth) {
      out.set("tile_svg", nullptr);
    } else if (const auto tile = layout.empty() ? std::nullopt
                                                : teaching::access_tile(posed, layout, width,
                                                                        static_cast<std::uint64_t>(r.seed.value_or(1)),
                                                                        static_cast<std::uint64_t>(warp))) {
      out.set("tile_svg", teaching::tile_svg(tile->layout, tile->outlined, tile->caption));
    } else if (!tile_warp.empty()) {
      throw InputError("--tile-warp: only for a w x w matrix's cells");
    }
    return out;
  });
}

std::string layout(const std::string& name, const std::string& w, const std::string& seed) {
  return answer([&] {
    const auto width = integer(integer_param("w", "-w,--width", "width", 2, kMaxLayoutWidth), w);
    const auto s = integer(seed_param(), seed.empty() ? "1" : seed);
    // `mmsim layout --json`'s object: the banks, the language, the worst warp of each access.
    Json out = teaching::matrix_layout_report(name, static_cast<int>(width), static_cast<std::uint64_t>(s));
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
    out.set("by_index", std::move(accesses));
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
    std::vector<std::pair<std::string, teaching::TraceFile>> runs;
    runs.emplace_back("round_synchronous", teaching::trace_of(sync.stats, sync.trace));
    if (entry->asynchronous) {
      engine.execution = Execution::Asynchronous;
      const RunReport async = run_algorithm(*entry, values, engine);
      out.set("asynchronous", mmsim::to_json(async));
      runs.emplace_back("asynchronous", teaching::trace_of(async.stats, async.trace));
    } else {
      out.set("asynchronous", nullptr);
    }
    // The run's own slots, drawn as `mmsim trace` draws its CSV, both on one time axis (the longer
    // run's): a time unit is as wide in one picture as in the other, so the two compare by eye.
    TimeUnits axis = 0;
    for (const auto& run : runs) axis = std::max(axis, run.second.end);
    for (const auto& run : runs) {
      traces.set(run.first, teaching::trace_json(run.second, run.first));
      svgs.set(run.first, teaching::trace_svg(run.second, run.first, kTraceAxisPx, axis));
    }
    out.set("time_axis", static_cast<unsigned long long>(axis));
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
    out.set("svg", teaching::trace_svg(t, file, kTraceAxisPx));
    return out;
  });
}

std::string kernel(const std::string& text, const std::string& file) {
  return answer([&] {
    const kernels::ProgramSpec spec = kernels::parse_kernel_file(text, file);
    EngineOptions engine;
    engine.threads = 1;  // the page has one thread; the run is the same for every count
    const kernels::ProgramRun run = kernels::run_program(spec, engine);
    return kernels::run_json(spec, run, false);
  });
}

}  // namespace mmsim::explorer
