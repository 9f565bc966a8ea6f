/// @file make_hulls.cpp
/// Writes the harbour demo's boat meshes (Wavefront OBJ, one file per boat,
/// plus a shared material library) so that media/ is reproducible:
///
///     keel_make_hulls <output directory>
///
/// Frame of every file: metres, y up, bow towards +x, origin on the design
/// waterline at midships on the centreline. Each file holds an object `hull`
/// (the closed, outward surface that Keel floats: one closed part, or two for
/// the catamaran) and visual-only objects (`cabin`, `deck`, ...) that the
/// demo renders but does not float. The hull's faces carry three materials
/// (bottom paint, topsides, deck) only for looks; the demo joins them.
///
/// The program checks its own output: every hull edge is used exactly twice
/// in opposite directions (closed, consistently wound) and the enclosed
/// volume is positive (outward). It exits non-zero otherwise.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Vec3 {
  double x = 0, y = 0, z = 0;
};
Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator*(Vec3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

/// A triangle mesh with one material name per face, vertices shared by index.
struct Mesh {
  std::vector<Vec3> vertices;             ///< [m]
  std::vector<std::array<int, 3>> faces;  ///< counter-clockwise seen from outside
  std::vector<std::string> materials;     ///< one per face

  int add(Vec3 p) {
    vertices.push_back(p);
    return int(vertices.size()) - 1;
  }
  void tri(int a, int b, int c, const std::string& material) {
    faces.push_back({a, b, c});
    materials.push_back(material);
  }
  void append(const Mesh& other) {
    const int base = int(vertices.size());
    vertices.insert(vertices.end(), other.vertices.begin(), other.vertices.end());
    for (std::size_t f = 0; f < other.faces.size(); ++f)
      tri(other.faces[f][0] + base, other.faces[f][1] + base, other.faces[f][2] + base, other.materials[f]);
  }
};

/// Signed enclosed volume [m^3] (divergence theorem): positive when the
/// faces wind counter-clockwise seen from outside.
double signedVolume(const Mesh& m) {
  double v = 0;
  for (const auto& f : m.faces) v += dot(m.vertices[f[0]], cross(m.vertices[f[1]], m.vertices[f[2]])) / 6.0;
  return v;
}

/// True when every directed edge appears once and its reverse once: closed
/// and consistently wound (the check keel::Hull makes, on shared indices).
bool closedAndConsistent(const Mesh& m) {
  std::map<std::pair<int, int>, int> directed;
  for (const auto& f : m.faces)
    for (int e = 0; e < 3; ++e) ++directed[{f[e], f[(e + 1) % 3]}];
  for (const auto& [edge, count] : directed) {
    auto reverse = directed.find({edge.second, edge.first});
    if (count != 1 || reverse == directed.end() || reverse->second != 1) return false;
  }
  return true;
}

/// One cross-section of a hull at station x: a closed ring of points, from one deck
/// edge (-z) down round the keel to the other (+z) and back across the deck.
struct Section {
  double halfBeam_m;  ///< half-width at the deck edge [m]
  double keel_m;      ///< height of the keel (lowest point) [m], negative below the waterline
  double deck_m;      ///< height of the deck (sheer line) [m]
  double fullness;    ///< superellipse exponent: 2 round bilge, ~1.3 deep V, 6+ box
};

/// How a hull's sections vary along its length.
struct HullForm {
  double length_m;
  std::function<Section(double s)> section;  ///< s in [0, 1], stern to bow
};

// Resolution: fine enough to look round with smooth normals, coarse enough
// that Keel's per-piece hydrodynamics stay cheap (~900 triangles a hull).
constexpr int kStations = 22;      // along the length
constexpr int kTopsidePoints = 3;  // segments from a deck edge down to the boot line
constexpr int kBottomPoints = 5;   // segments from the boot line down to the keel
constexpr int kDeckPoints = 3;     // across the deck, excluding the edges
/// Segments round the section, deck edge to deck edge.
constexpr int kSideSegments = 2 * (kTopsidePoints + kBottomPoints);
/// Height of the boot line [m]: the paint changes colour here.
constexpr double kBootLine_m = 0.08;

/// Points of one ring at station x (see Section). The boot line is a ring
/// point of its own, at the same index on every ring, so the paint edge runs
/// cleanly along the hull.
std::vector<Vec3> ring(double x_m, const Section& sec) {
  const double depth = sec.deck_m - sec.keel_m;
  const double e = 2.0 / sec.fullness;
  // Angle of the boot line on the superellipse: y = deck - depth |cos phi|^e.
  // Where the keel rises above it (the forefoot), keep a sliver of bottom.
  double bootPhi = 0.02;
  if (sec.keel_m < kBootLine_m - 1e-3)
    bootPhi = std::max(bootPhi, std::acos(std::pow((sec.deck_m - kBootLine_m) / depth, 1.0 / e)));
  std::vector<double> angles;  // -pi/2 (deck edge at -z) .. 0 (keel) .. +pi/2 (deck edge at +z)
  for (int k = 0; k < kTopsidePoints; ++k)
    angles.push_back(-std::numbers::pi / 2 + (std::numbers::pi / 2 - bootPhi) * k / kTopsidePoints);
  for (int k = 0; k < kBottomPoints; ++k) angles.push_back(-bootPhi + bootPhi * k / kBottomPoints);
  for (int k = int(angles.size()) - 1; k >= 0; --k) angles.push_back(-angles[std::size_t(k)]);
  angles.insert(angles.begin() + kTopsidePoints + kBottomPoints, 0.0);  // the keel itself
  std::vector<Vec3> points;
  for (double phi : angles) {
    const double s = std::sin(phi), c = std::cos(phi);
    const double z = sec.halfBeam_m * std::copysign(std::pow(std::abs(s), e), s);
    const double y = sec.deck_m - depth * std::pow(std::abs(c), e);
    points.push_back({x_m, y, z});
  }
  for (int k = 1; k <= kDeckPoints; ++k) {  // back from +z to -z across the flat deck
    const double z = sec.halfBeam_m * (1.0 - 2.0 * k / (kDeckPoints + 1));
    points.push_back({x_m, sec.deck_m, z});
  }
  return points;
}

/// The paint of the hull face that starts at ring point `k` (the segment
/// from k to k + 1): antifouling between the boot lines, deck across the top,
/// topsides between.
std::string hullMaterial(int k, const std::string& topsides) {
  if (k >= kSideSegments) return "deck";
  if (k >= kTopsidePoints && k < kSideSegments - kTopsidePoints) return "antifouling";
  return topsides;
}

/// A closed hull lofted through kStations rings and capped at both ends with
/// a fan (flat transom at the stern, a thin stem at the bow). `zOffset_m`
/// shifts it sideways (the catamaran's two hulls).
Mesh loft(const HullForm& form, const std::string& topsides, double zOffset_m = 0) {
  Mesh m;
  std::vector<std::vector<int>> rings;
  for (int i = 0; i < kStations; ++i) {
    const double s = double(i) / (kStations - 1);
    const double x = -form.length_m / 2 + form.length_m * s;
    std::vector<int> ids;
    for (Vec3 p : ring(x, form.section(s))) ids.push_back(m.add(p + Vec3{0, 0, zOffset_m}));
    rings.push_back(ids);
  }
  const int n = int(rings[0].size());
  for (int i = 0; i + 1 < kStations; ++i)
    for (int k = 0; k < n; ++k) {
      const int k1 = (k + 1) % n;
      const int a = rings[i][k], b = rings[i][k1], c = rings[i + 1][k1], d = rings[i + 1][k];
      m.tri(a, b, c, hullMaterial(k, topsides));
      m.tri(a, c, d, hullMaterial(k, topsides));
    }
  // End caps: a fan round the ring's centroid, wound to face aft (stern)
  // and forward (bow).
  for (int end = 0; end < 2; ++end) {
    const auto& r = end == 0 ? rings.front() : rings.back();
    Vec3 centre;
    for (int id : r) centre = centre + m.vertices[id];
    const int c = m.add(centre * (1.0 / n));
    for (int k = 0; k < n; ++k) {
      const int a = r[k], b = r[(k + 1) % n];
      // The deck's colour stops at the deck: the transom is painted.
      const std::string paint = k >= kSideSegments ? topsides : hullMaterial(k, topsides);
      if (end == 0)
        m.tri(c, b, a, paint);
      else
        m.tri(c, a, b, paint);
    }
  }
  if (signedVolume(m) < 0)  // the ring's orientation decides; make it outward
    for (auto& f : m.faces) std::swap(f[1], f[2]);
  return m;
}

/// An axis-aligned box from `lo` to `hi` [m], outward.
Mesh box(Vec3 lo, Vec3 hi, const std::string& material) {
  Mesh m;
  for (int i = 0; i < 8; ++i) m.add({(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z});
  const int q[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& f : q) {
    m.tri(f[0], f[1], f[2], material);
    m.tri(f[0], f[2], f[3], material);
  }
  return m;
}

/// A box whose top face is shrunk towards the back (-x) by `rake_m` [m]: a
/// wheelhouse or windscreen with a raked front.
Mesh rakedBox(Vec3 lo, Vec3 hi, double rake_m, const std::string& material) {
  Mesh m = box(lo, hi, material);
  for (auto& v : m.vertices)
    if (v.y == hi.y && v.x == hi.x) v.x -= rake_m;
  return m;
}

/// A vertical cylinder (funnel, mast) of radius r [m] from y0 to y1 [m].
Mesh cylinder(double x_m, double z_m, double r_m, double y0_m, double y1_m, const std::string& material) {
  Mesh m;
  constexpr int kSegments = 16;
  const int bottom = m.add({x_m, y0_m, z_m}), top = m.add({x_m, y1_m, z_m});
  for (int k = 0; k < kSegments; ++k) {
    const double a = 2 * std::numbers::pi * k / kSegments;
    m.add({x_m + r_m * std::cos(a), y0_m, z_m + r_m * std::sin(a)});
    m.add({x_m + r_m * std::cos(a), y1_m, z_m + r_m * std::sin(a)});
  }
  for (int k = 0; k < kSegments; ++k) {
    const int b0 = 2 + 2 * k, t0 = b0 + 1, b1 = 2 + 2 * ((k + 1) % kSegments), t1 = b1 + 1;
    m.tri(b0, t0, t1, material);
    m.tri(b0, t1, b1, material);
    m.tri(bottom, b0, b1, material);
    m.tri(top, t1, t0, material);
  }
  if (signedVolume(m) < 0)
    for (auto& f : m.faces) std::swap(f[1], f[2]);
  return m;
}

/// Smoothstep-like blend from a to b as s goes from s0 to s1.
double blend(double s, double s0, double s1, double a, double b) {
  const double t = std::clamp((s - s0) / (s1 - s0), 0.0, 1.0);
  return a + (b - a) * t * t * (3 - 2 * t);
}

/// Plan-view fullness: 1 amidships, narrowing to `bowTip` at the bow and to
/// `transom` at the stern.
double planform(double s, double transom, double bowStart, double bowTip) {
  if (s > bowStart) {
    const double t = (s - bowStart) / (1 - bowStart);
    return bowTip + (1 - bowTip) * std::sqrt(std::max(0.0, 1 - t * t));
  }
  return blend(s, 0.0, 0.35, transom, 1.0);
}

struct Part {
  std::string name;
  Mesh mesh;
};

struct Boat {
  std::string file;
  std::vector<Part> parts;  ///< parts[0] is the hull
};

Boat rowboat() {
  HullForm f{4.0, [](double s) {
               const double w = planform(s, 0.55, 0.55, 0.03);
               return Section{0.72 * w, blend(s, 0.7, 1.0, -0.24, 0.18), 0.42 + blend(s, 0.6, 1.0, 0, 0.16), 2.2};
             }};
  Boat b{"rowboat.obj", {{"hull", loft(f, "green")}}};
  b.parts.push_back({"thwarts", box({-0.2, 0.42, -0.55}, {0.15, 0.47, 0.55}, "wood")});
  b.parts.back().mesh.append(box({1.0, 0.45, -0.42}, {1.3, 0.5, 0.42}, "wood"));
  return b;
}

Boat speedboat() {
  HullForm f{7.0, [](double s) {
               const double w = planform(s, 0.9, 0.6, 0.02);
               return Section{1.2 * w, blend(s, 0.65, 1.0, -0.45, 0.25), 0.75 + blend(s, 0.6, 1.0, 0, 0.15), 1.35};
             }};
  Boat b{"speedboat.obj", {{"hull", loft(f, "red")}}};
  b.parts.push_back({"windscreen", rakedBox({0.2, 0.75, -0.9}, {0.9, 1.25, 0.9}, 0.45, "glass")});
  b.parts.push_back({"seats", box({-1.6, 0.75, -0.9}, {-0.6, 1.05, 0.9}, "white")});
  return b;
}

Boat tug() {
  HullForm f{14.0, [](double s) {
               const double w = planform(s, 0.8, 0.62, 0.05);
               return Section{2.6 * w, blend(s, 0.7, 1.0, -1.8, 0.3), 1.3 + blend(s, 0.55, 1.0, 0, 0.9), 2.4};
             }};
  Boat b{"tug.obj", {{"hull", loft(f, "orange")}}};
  b.parts.push_back({"wheelhouse", rakedBox({0.0, 1.3, -1.7}, {3.5, 3.8, 1.7}, 0.4, "white")});
  b.parts.back().mesh.append(box({0.4, 3.8, -1.9}, {3.4, 4.0, 1.9}, "darkgrey"));
  b.parts.push_back({"funnel", cylinder(-1.2, 0, 0.55, 1.3, 5.0, "black")});
  b.parts.push_back({"fender", box({6.0, 0.9, -0.9}, {7.1, 1.6, 0.9}, "black")});
  return b;
}

Boat barge() {
  HullForm f{24.0, [](double s) {
               // Raked ends: the bottom rises towards both ends, the beam stays.
               const double keel = std::min(blend(s, 0.0, 0.1, 0.2, -1.2), blend(s, 0.88, 1.0, -1.2, 0.4));
               return Section{3.6 * planform(s, 0.92, 0.9, 0.75), keel, 1.0, 8.0};
             }};
  Boat b{"barge.obj", {{"hull", loft(f, "rust")}}};
  b.parts.push_back({"cargo", box({-9.0, 1.0, -2.8}, {3.0, 2.4, 2.8}, "cargo")});
  b.parts.back().mesh.append(box({4.0, 1.0, -2.8}, {9.5, 2.0, 2.8}, "cargo2"));
  return b;
}

Boat catamaran() {
  HullForm f{12.0, [](double s) {
               const double w = planform(s, 0.7, 0.55, 0.02);
               return Section{0.65 * w, blend(s, 0.7, 1.0, -0.75, 0.3), 0.9 + blend(s, 0.6, 1.0, 0, 0.2), 2.0};
             }};
  Mesh hulls = loft(f, "yellow", -2.6);
  hulls.append(loft(f, "yellow", 2.6));
  Boat b{"catamaran.obj", {{"hull", hulls}}};
  b.parts.push_back({"bridgedeck", box({-5.0, 1.0, -3.1}, {3.5, 1.25, 3.1}, "white")});
  b.parts.push_back({"cabin", rakedBox({-3.5, 1.25, -2.2}, {1.5, 2.6, 2.2}, 0.8, "glass")});
  b.parts.push_back({"mast", cylinder(1.0, 0, 0.09, 1.25, 14.0, "white")});
  return b;
}

bool writeObj(const Boat& boat, const std::filesystem::path& dir) {
  std::ofstream out(dir / boat.file);
  out << "# Keel harbour demo: " << boat.file << " (written by demo/tools/make_hulls.cpp)\n"
      << "# metres, y up, bow +x, origin on the design waterline amidships.\n"
      << "# Object 'hull' is the closed hull Keel floats; the others are visual only.\n"
      << "mtllib boats.mtl\n";
  out.precision(5);
  int base = 1;
  for (const Part& part : boat.parts) {
    out << "o " << part.name << "\n";
    for (const Vec3& v : part.mesh.vertices) out << "v " << v.x << ' ' << v.y << ' ' << v.z << "\n";
    std::string current;
    for (std::size_t f = 0; f < part.mesh.faces.size(); ++f) {
      if (part.mesh.materials[f] != current) {
        current = part.mesh.materials[f];
        out << "usemtl " << current << "\n";
      }
      const auto& t = part.mesh.faces[f];
      out << "f " << t[0] + base << ' ' << t[1] + base << ' ' << t[2] + base << "\n";
    }
    base += int(part.mesh.vertices.size());
  }
  return bool(out);
}

bool writeMaterials(const std::filesystem::path& dir) {
  // name, diffuse colour (linear 0..1), specular strength
  const std::vector<std::pair<std::string, std::array<double, 3>>> colours = {
      {"antifouling", {0.45, 0.07, 0.06}}, {"deck", {0.62, 0.50, 0.36}},     {"green", {0.08, 0.42, 0.26}},
      {"white", {0.92, 0.92, 0.90}},       {"red", {0.80, 0.12, 0.10}},      {"glass", {0.20, 0.30, 0.38}},
      {"orange", {0.95, 0.42, 0.05}},      {"darkgrey", {0.22, 0.22, 0.24}}, {"black", {0.07, 0.07, 0.08}},
      {"rust", {0.55, 0.18, 0.08}},        {"cargo", {0.95, 0.75, 0.10}},    {"cargo2", {0.10, 0.45, 0.75}},
      {"yellow", {0.95, 0.80, 0.08}},      {"wood", {0.55, 0.38, 0.22}},
  };
  std::ofstream out(dir / "boats.mtl");
  out << "# Keel harbour demo boat materials (written by demo/tools/make_hulls.cpp)\n";
  for (const auto& [name, c] : colours)
    out << "newmtl " << name << "\nKd " << c[0] << ' ' << c[1] << ' ' << c[2] << "\nKs 0.3 0.3 0.3\nNs 40\n\n";
  return bool(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " <output directory>\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  bool ok = writeMaterials(dir);
  for (const Boat& boat : {rowboat(), speedboat(), tug(), barge(), catamaran()}) {
    const Mesh& hull = boat.parts.front().mesh;
    const bool closed = closedAndConsistent(hull);
    const double volume = signedVolume(hull);
    ok = ok && writeObj(boat, dir) && closed && volume > 0;
    std::printf("%-14s %5zu hull triangles, volume %7.2f m^3, %s\n", boat.file.c_str(), hull.faces.size(), volume,
                closed && volume > 0 ? "closed, outward" : "NOT A VALID HULL");
  }
  return ok ? 0 : 1;
}
