#include "teaching/trace_view.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "algorithms/run_output.h"
#include "teaching/access.h"
#include "teaching/pipeline_text.h"
#include "teaching/svg.h"

namespace mmsim::teaching {

namespace {

// Round colours, far apart so that neighbouring rounds never look alike (Tableau's 10 and two light
// ones); they repeat every 12 rounds.
constexpr const char* kRoundColours[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
                                         "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#a0cbe8", "#8cd17d"};
constexpr int kPalette = 12;

std::string memories_text(const TraceRound& r) {
  if (r.memories.size() == 1) return memory_name(r.memories[0]);
  return "shared" + std::to_string(r.memories.front() - 1) + ".." + std::to_string(r.memories.back() - 1);
}

// Rounds whose span [first_enter, last_complete] meets another round's: asynchronous overlap.
std::vector<bool> overlapped(const TraceFile& t) {
  std::vector<bool> out(t.rounds.size(), false);
  std::vector<std::size_t> order(t.rounds.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return t.rounds[a].first_enter < t.rounds[b].first_enter; });
  TimeUnits reach = -1;
  std::size_t reacher = 0;
  for (std::size_t k : order) {
    if (t.rounds[k].first_enter <= reach) out[k] = out[reacher] = true;
    if (t.rounds[k].last_complete > reach) reach = t.rounds[k].last_complete, reacher = k;
  }
  return out;
}

std::string pad(std::string s, std::size_t w, bool right = false) {
  if (s.size() >= w) return s;
  return right ? std::string(w - s.size(), ' ') + s : s + std::string(w - s.size(), ' ');
}

}  // namespace

std::string trace_text(const TraceFile& t, const std::string& file) {
  std::ostringstream out;
  const bool async = t.overlapping();
  out << "trace " << file << ": " << t.slots.size() << " slots in " << t.rounds.size() << " round"
      << (t.rounds.size() == 1 ? "" : "s") << " over " << t.end << " time units; "
      << (async ? "rounds overlap in time (asynchronous execution)" : "no two rounds overlap (round-synchronous)")
      << "\n";
  out << "pipelines:";
  for (std::size_t k = 0; k < t.lanes.size(); ++k)
    out << (k ? "," : "") << " " << t.lanes[k].name << " (latency " << t.lanes[k].latency << ", " << t.lanes[k].slots
        << " slots)";
  out << "\n\n";
  // The rounds table.
  const auto over = overlapped(t);
  std::vector<std::vector<std::string>> rows{
      {"round", "kernel", "name", "array", "memory", "op", "warps", "slots", "enters", "completes"}};
  for (std::size_t k = 0; k < t.rounds.size(); ++k) {
    const auto& r = t.rounds[k];
    rows.push_back({std::to_string(r.index) + (over[k] ? "*" : ""), r.kernel, r.name, r.array, memories_text(r),
                    to_string(r.op), std::to_string(r.warps), std::to_string(r.slots), std::to_string(r.first_enter),
                    std::to_string(r.last_complete)});
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  const std::vector<bool> numeric{true, false, false, false, false, false, true, true, true, true};
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) line += (c ? "  " : "") + pad(row[c], width[c], numeric[c]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  if (std::find(over.begin(), over.end(), true) != over.end())
    out << "(* the round's slots enter while another round's are still in flight)\n";
  out << "(enters: the first slot's entry; completes: the time unit at whose end the last slot completes)\n";

  // The stage-by-time diagram, when it fits.
  const bool many = t.rounds.size() > 1;
  const bool numeric_slots =
      std::any_of(t.slots.begin(), t.slots.end(), [](const SlotEvent& e) { return e.slot >= 26; });
  std::vector<PipelineLane> lanes;
  for (const auto& l : t.lanes) lanes.push_back({l.memory, l.latency, l.name});
  std::string why;
  const auto grid = stage_grid(
      t.slots, lanes,
      [&](const SlotEvent& e) {
        return (many ? std::to_string(e.round) + ":" : "") + "W" + std::to_string(e.warp) + (numeric_slots ? "." : "") +
               slot_name(e.slot, numeric_slots);
      },
      GridLimits{}, &why);
  if (grid) {
    out << "\npipeline diagram (" << (many ? "round:" : "") << "W<warp><slot> in the stage it occupies):\n" << *grid;
  } else {
    out << "\n(pipeline diagram left out: " << why
        << "; the rounds above summarise every slot, and --svg FILE draws each one)\n";
  }
  return out.str();
}

report::Json trace_json(const TraceFile& t, const std::string& file) {
  using report::Json;
  Json j = Json::object();
  j.set("file", file).set("slots", static_cast<unsigned long long>(t.slots.size())).set("time_units", t.end);
  j.set("overlapping", t.overlapping());
  Json lanes = Json::array();
  for (const auto& l : t.lanes)
    lanes.push(Json::object()
                   .set("memory", l.name)
                   .set("latency", l.latency)
                   .set("slots", static_cast<unsigned long long>(l.slots)));
  j.set("pipelines", std::move(lanes));
  Json rounds = Json::array();
  const auto over = overlapped(t);
  for (std::size_t k = 0; k < t.rounds.size(); ++k) {
    const auto& r = t.rounds[k];
    Json mem = Json::array();
    for (int m : r.memories) mem.push(memory_name(m));
    rounds.push(Json::object()
                    .set("round", r.index)
                    .set("kernel", r.kernel)
                    .set("name", r.name)
                    .set("array", r.array)
                    .set("op", to_string(r.op))
                    .set("memories", std::move(mem))
                    .set("warps", static_cast<unsigned long long>(r.warps))
                    .set("slots", static_cast<unsigned long long>(r.slots))
                    .set("first_enter", r.first_enter)
                    .set("last_complete", r.last_complete)
                    .set("overlaps_another", static_cast<bool>(over[k])));
  }
  j.set("rounds", std::move(rounds));
  return j;
}

namespace {

// Tick spacing for an axis of `end` time units: 1, 2 or 5 times a power of ten, about 10 ticks.
TimeUnits tick_step(TimeUnits end) {
  TimeUnits step = 1;
  while (end / step > 12) {
    if (end / (step * 2) <= 12) return step * 2;
    if (end / (step * 5) <= 12) return step * 5;
    step *= 10;
  }
  return step;
}

}  // namespace

std::string trace_svg(const TraceFile& t, const std::string& file, int width, TimeUnits axis_end) {
  const double left = 150, plot = width, right = 30;
  const TimeUnits end = std::max<TimeUnits>({t.end, axis_end, 1});
  const double scale = plot / static_cast<double>(end);  // px per time unit
  const bool exact = scale >= 1.0;                       // one mark per slot entry
  const auto x = [&](double time) { return left + time * scale; };
  // Round index -> position in t.rounds and colour.
  std::map<int, std::size_t> pos;
  for (std::size_t k = 0; k < t.rounds.size(); ++k) pos[t.rounds[k].index] = k;
  const auto colour = [&](int round) { return std::string(kRoundColours[pos.at(round) % kPalette]); };

  // Rounds on rows: a round goes on the first row whose last bar ends before it starts.
  std::vector<std::size_t> row_of(t.rounds.size(), 0);
  std::vector<TimeUnits> row_end;
  {
    std::vector<std::size_t> order(t.rounds.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return t.rounds[a].first_enter < t.rounds[b].first_enter; });
    for (std::size_t k : order) {
      std::size_t r = 0;
      while (r < row_end.size() && row_end[r] >= t.rounds[k].first_enter) ++r;
      if (r == row_end.size()) row_end.push_back(0);
      row_end[r] = t.rounds[k].last_complete;
      row_of[k] = r;
    }
  }
  // The line that says how to read the picture, wrapped to its width (about 6.6 px a character of
  // 12-px text), so that a narrow picture (the explorer's) shows all of it.
  const std::string how =
      (exact ? "Marks: slots entering their pipeline, one time unit wide each, coloured by round; a gap "
               "is a time unit in which none entered."
             : "Summarised: each pixel column covers " + svg::num(1.0 / scale) +
                   " time units; its bar is the share of them in which a slot entered, split by round.") +
      " Below each lane: slots in flight, as a share of its latency.";
  std::vector<std::string> how_lines(1);
  {
    const auto fits = static_cast<std::size_t>(std::max(40.0, (left + plot + right - 20) / 6.6));
    std::istringstream words(how);
    for (std::string word; words >> word;) {
      if (!how_lines.back().empty() && how_lines.back().size() + 1 + word.size() > fits) how_lines.emplace_back();
      how_lines.back() += (how_lines.back().empty() ? "" : " ") + word;
    }
  }
  const double bar_h = 16, top_header = 78 + 16 * static_cast<double>(how_lines.size() - 1);
  const double rounds_top = top_header + 16;
  const double rounds_h = static_cast<double>(row_end.size()) * (bar_h + 3);
  const double lane_gap = 10, enter_h = 16, flight_h = t.lanes.size() > 16 ? 14 : 28;
  const double lanes_top = rounds_top + rounds_h + 18;
  const double lane_h = enter_h + flight_h + lane_gap + 4;
  const double axis_y = lanes_top + static_cast<double>(t.lanes.size()) * lane_h + 4;
  const std::size_t legend_n = std::min<std::size_t>(t.rounds.size(), 48);
  const int legend_cols = 3;
  const double legend_top = axis_y + 56;
  const double height = legend_top + std::ceil(static_cast<double>(legend_n) / legend_cols) * 16 + 30;

  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << svg::num(left + plot + right) << "\" height=\""
    << svg::num(height) << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  const bool async = t.overlapping();
  o << "<text x=\"10\" y=\"22\" font-size=\"16\">" << svg::escape("mmsim trace " + file) << "</text>\n";
  std::string stats =
      std::to_string(t.slots.size()) + " slots, " + std::to_string(t.rounds.size()) + " rounds, " +
      std::to_string(t.end) + " time units; " +
      (async ? "rounds overlap (asynchronous execution)" : "rounds one after another (round-synchronous)");
  o << "<text x=\"10\" y=\"42\">" << svg::escape(stats) << "</text>\n";
  for (std::size_t k = 0; k < how_lines.size(); ++k)
    o << "<text x=\"10\" y=\"" << 60 + 16 * k << "\">" << svg::escape(how_lines[k]) << "</text>\n";

  // Round bars.
  o << "<text x=\"10\" y=\"" << svg::num(rounds_top + 12) << "\" font-weight=\"bold\">rounds</text>\n";
  for (std::size_t k = 0; k < t.rounds.size(); ++k) {
    const auto& r = t.rounds[k];
    const double x0 = x(static_cast<double>(r.first_enter)), x1 = x(static_cast<double>(r.last_complete + 1));
    const double y = rounds_top + static_cast<double>(row_of[k]) * (bar_h + 3);
    const std::string label = std::to_string(r.index) + " " + r.name;
    o << "<rect x=\"" << svg::num(x0) << "\" y=\"" << svg::num(y) << "\" width=\"" << svg::num(std::max(1.0, x1 - x0))
      << "\" height=\"" << bar_h << "\" fill=\"" << colour(r.index) << "\" fill-opacity=\"0.75\"><title>"
      << svg::escape("round " + label + " (" + r.kernel + ", " + memories_text(r) + " " + to_string(r.op) +
                     "): " + std::to_string(r.slots) + " slots, time units " + std::to_string(r.first_enter) + ".." +
                     std::to_string(r.last_complete))
      << "</title></rect>";
    if (x1 - x0 > 7.0 * static_cast<double>(label.size()))
      o << "<text x=\"" << svg::num(x0 + 3) << "\" y=\"" << svg::num(y + 12) << "\" font-size=\"11\">"
        << svg::escape(label) << "</text>";
    o << "\n";
  }
  // Round starts as thin lines across the lanes.
  for (const auto& r : t.rounds)
    o << "<line x1=\"" << svg::num(x(static_cast<double>(r.first_enter))) << "\" x2=\""
      << svg::num(x(static_cast<double>(r.first_enter))) << "\" y1=\"" << svg::num(lanes_top - 6) << "\" y2=\""
      << svg::num(axis_y) << "\" stroke=\"#999\" stroke-width=\"0.5\" stroke-dasharray=\"3,3\"/>\n";

  // Lanes. Each lane's slots, found once; and, when summarised, the whole time units whose entry
  // falls in each pixel column (a full pipeline fills its column).
  std::map<int, std::vector<const SlotEvent*>> by_lane;
  for (const auto& e : t.slots) by_lane[e.memory].push_back(&e);
  std::vector<std::uint64_t> cover;
  if (!exact) {
    const auto cols = static_cast<std::size_t>(plot);
    cover.assign(cols, 0);
    for (std::size_t c = 0; c < cols; ++c) {  // time units tt with floor(tt * scale) == c
      const auto from = static_cast<TimeUnits>(std::ceil(static_cast<double>(c) / scale));
      const auto to = std::min(end, static_cast<TimeUnits>(std::ceil(static_cast<double>(c + 1) / scale)));
      cover[c] = to > from ? static_cast<std::uint64_t>(to - from) : 0;
    }
  }
  for (std::size_t li = 0; li < t.lanes.size(); ++li) {
    const auto& lane = t.lanes[li];
    const double y0 = lanes_top + static_cast<double>(li) * lane_h;
    o << "<text x=\"10\" y=\"" << svg::num(y0 + 12) << "\" font-weight=\"bold\">" << svg::escape(lane.name)
      << "</text><text x=\"10\" y=\"" << svg::num(y0 + 26) << "\" font-size=\"10\">latency " << lane.latency << ", "
      << lane.slots << " slots</text>\n";
    o << "<rect x=\"" << left << "\" y=\"" << svg::num(y0) << "\" width=\"" << plot << "\" height=\""
      << svg::num(enter_h + flight_h + 2) << "\" fill=\"#f4f4f4\"/>\n";
    std::vector<const SlotEvent*>& mine = by_lane[lane.memory];
    const double fy = y0 + enter_h + 2;  // top of the in-flight strip
    if (exact) {
      // Consecutive entries of one round are one bar (separate bars leave seams that look like idle
      // time units); a lone slot keeps its own tooltip with its requests.
      std::sort(mine.begin(), mine.end(), [](const SlotEvent* a, const SlotEvent* b) { return a->enter < b->enter; });
      for (std::size_t a = 0; a < mine.size();) {
        std::size_t b = a;
        while (b + 1 < mine.size() && mine[b + 1]->round == mine[a]->round && mine[b + 1]->enter == mine[b]->enter + 1)
          ++b;
        const SlotEvent* e = mine[a];
        const auto n = static_cast<double>(b - a + 1);
        o << "<rect x=\"" << svg::num(x(static_cast<double>(e->enter))) << "\" y=\"" << svg::num(y0) << "\" width=\""
          << svg::num(scale * n) << "\" height=\"" << enter_h << "\" fill=\"" << colour(e->round)
          << "\" shape-rendering=\"crispEdges\"><title>";
        if (a == b) {
          std::string req;
          for (std::size_t q = 0; q < e->requests.size() && q < 8; ++q)
            req += (q ? " " : "") + std::to_string(e->requests[q]);
          if (e->requests.size() > 8) req += " ... (" + std::to_string(e->requests.size()) + " requests)";
          o << svg::escape("round " + std::to_string(e->round) + ", warp " + std::to_string(e->warp) + ", slot " +
                           std::to_string(e->slot) + ": enters " + std::to_string(e->enter) + ", completes " +
                           std::to_string(e->complete) + "; requests " + req);
        } else {
          o << svg::escape("round " + std::to_string(e->round) + ": " + std::to_string(b - a + 1) +
                           " slots entering at time units " + std::to_string(e->enter) + ".." +
                           std::to_string(mine[b]->enter) + " (warps " + std::to_string(e->warp) + ".." +
                           std::to_string(mine[b]->warp) + ")");
        }
        o << "</title></rect>\n";
        a = b + 1;
      }
    } else {
      // Per pixel column: entries per round, drawn as a stacked bar of height entries / time units.
      const auto cols = static_cast<std::size_t>(plot);
      std::vector<std::map<int, std::uint64_t>> per(cols);
      for (const SlotEvent* e : mine) {
        const auto c = std::min(cols - 1, static_cast<std::size_t>(static_cast<double>(e->enter) * scale));
        ++per[c][e->round];
      }
      for (std::size_t c = 0; c < cols; ++c) {
        double y = y0 + enter_h;
        for (const auto& [round, n] : per[c]) {
          const double h = enter_h * std::min(1.0, static_cast<double>(n) /
                                                       static_cast<double>(std::max<std::uint64_t>(cover[c], 1)));
          y -= h;
          o << "<rect x=\"" << svg::num(left + static_cast<double>(c)) << "\" y=\"" << svg::num(y)
            << "\" width=\"1\" height=\"" << svg::num(h) << "\" fill=\"" << colour(round)
            << "\" shape-rendering=\"crispEdges\"/>";
        }
        if (!per[c].empty()) o << "\n";
      }
    }
    // In flight: the mean number of slots in the pipeline over each pixel column, over the latency.
    const auto cols = static_cast<std::size_t>(exact ? end : static_cast<TimeUnits>(plot));
    const double unit = exact ? 1.0 : static_cast<double>(end) / plot;  // time units per column
    std::vector<double> flight(cols + 1, 0.0);
    for (const SlotEvent* e : mine) {
      const double a = static_cast<double>(e->enter), b = static_cast<double>(e->complete + 1);
      for (auto c = static_cast<std::size_t>(a / unit); c < cols && static_cast<double>(c) * unit < b; ++c) {
        const double lo = std::max(a, static_cast<double>(c) * unit),
                     hi = std::min(b, static_cast<double>(c + 1) * unit);
        if (hi > lo) flight[c] += (hi - lo) / unit;
      }
    }
    o << "<polygon fill=\"#888888\" fill-opacity=\"0.55\" points=\"" << svg::num(left) << ","
      << svg::num(fy + flight_h);
    for (std::size_t c = 0; c < cols; ++c) {
      const double h = flight_h * std::min(1.0, flight[c] / lane.latency);
      const double xa = left + static_cast<double>(c) * unit * scale,
                   xb = left + static_cast<double>(c + 1) * unit * scale;
      o << " " << svg::num(xa) << "," << svg::num(fy + flight_h - h) << " " << svg::num(xb) << ","
        << svg::num(fy + flight_h - h);
    }
    o << " " << svg::num(left + plot) << "," << svg::num(fy + flight_h) << "\"/>\n";
    o << "<text x=\"" << svg::num(left - 6) << "\" y=\"" << svg::num(y0 + 12)
      << "\" font-size=\"9\" text-anchor=\"end\">entering</text><text x=\"" << svg::num(left - 6) << "\" y=\""
      << svg::num(fy + flight_h - 2) << "\" font-size=\"9\" text-anchor=\"end\">in flight</text>\n";
  }

  // Time axis.
  o << "<line x1=\"" << left << "\" x2=\"" << svg::num(left + plot) << "\" y1=\"" << svg::num(axis_y) << "\" y2=\""
    << svg::num(axis_y) << "\" stroke=\"black\"/>\n";
  const TimeUnits step = tick_step(end);
  for (TimeUnits tt = 0; tt <= end; tt += step)
    o << "<line x1=\"" << svg::num(x(static_cast<double>(tt))) << "\" x2=\"" << svg::num(x(static_cast<double>(tt)))
      << "\" y1=\"" << svg::num(axis_y) << "\" y2=\"" << svg::num(axis_y + 5) << "\" stroke=\"black\"/><text x=\""
      << svg::num(x(static_cast<double>(tt))) << "\" y=\"" << svg::num(axis_y + 18) << "\" text-anchor=\"middle\">"
      << tt << "</text>\n";
  o << "<text x=\"" << svg::num(left + plot) << "\" y=\"" << svg::num(axis_y + 32)
    << "\" text-anchor=\"end\">time units</text>\n";

  // Legend.
  for (std::size_t k = 0; k < legend_n; ++k) {
    const auto& r = t.rounds[k];
    const double lx = 10 + static_cast<double>(k % legend_cols) * (left + plot) / legend_cols;
    const double ly = legend_top + static_cast<double>(k / legend_cols) * 16;
    o << "<rect x=\"" << svg::num(lx) << "\" y=\"" << svg::num(ly - 10) << "\" width=\"12\" height=\"12\" fill=\""
      << colour(r.index) << "\"/><text x=\"" << svg::num(lx + 16) << "\" y=\"" << svg::num(ly) << "\">"
      << svg::escape(std::to_string(r.index) + ": " + r.kernel + " / " + r.name + " (" + memories_text(r) + " " +
                     to_string(r.op) + ", " + std::to_string(r.slots) + " slots)")
      << "</text>\n";
  }
  if (t.rounds.size() > legend_n)
    o << "<text x=\"10\" y=\"" << svg::num(height - 10) << "\">"
      << svg::escape("legend: the first " + std::to_string(legend_n) + " of " + std::to_string(t.rounds.size()) +
                     " rounds; colours repeat every " + std::to_string(kPalette) + " rounds")
      << "</text>\n";
  o << "</svg>\n";
  return o.str();
}

}  // namespace mmsim::teaching
