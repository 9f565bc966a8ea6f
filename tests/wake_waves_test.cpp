// keel::WakeField's waves as waves (docs/wakes.md): a bobbing source's
// ring travels at the group velocity, the absorbing edges send little of it
// back, the window follows a point without moving the waves, and nothing
// forces a still field. Windows of 128 x 128 nodes, 30 Hz frames.
#include "support/test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

namespace keel::test {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kFrame_s = 1.0 / 30;
constexpr double kWavelength_m = 2;  // 8 cells of smallWindow's
constexpr int kPeriods = 8;          // of the bobbing: a packet narrow enough to have one group velocity

std::shared_ptr<const WaterSurface> stillWater() { return std::make_shared<LevelWater>(); }

/// A 32 m window of 0.25 m cells (128 x 128 nodes) centred on the origin,
/// its absorbing band `spongeWidth_m` wide (0: the default, size / 8).
std::shared_ptr<WakeField> smallWindow(double spongeWidth_m) {
  WakeFieldSettings ws;
  ws.size_m = 32;
  ws.cellSize_m = 0.25;
  ws.spongeWidth_m = spongeWidth_m;
  return std::make_shared<WakeField>(stillWater(), ws);
}

/// A captive body: placed where its path says, its action primed at the
/// frame's time so that its substep leaves its sources for the field.
struct Held {
  Held(World& world, const Mesh& mesh, const std::shared_ptr<WakeField>& field)
      : body(world.addBox(btVector3(1, 1, 1), btScalar(100), btTransform::getIdentity())),
        action(body, hullOf(mesh), field) {
    field->add(action);
  }
  void place(const btVector3& position_m, const btVector3& velocity_mps, double t_s) {
    body->setWorldTransform(btTransform(btQuaternion::getIdentity(), position_m));
    body->setLinearVelocity(velocity_mps);
    body->setAngularVelocity(btVector3(0, 0, 0));
    action.setTime(t_s);
    action.prime(btScalar(kFrame_s));
  }
  btRigidBody* body;
  WaterAction action;
};

/// The heave frequency [rad/s] of waves kWavelength_m long: omega^2 = g k.
double bobbingFrequency(const WakeField& field) {
  return std::sqrt(field.settings().gravity_mps2 * 2 * kPi / kWavelength_m);
}

/// A 0.5 m cube, half immersed at the origin, heaving as
/// `a sin^2(pi t / D) sin(omega t)` over D = kPeriods periods (a Hann
/// envelope: one narrow packet of waves), then removed. Returns each
/// frame's heave velocity [m/s], at the frame's middle: the rate its bottom
/// pushes the water aside, over its area, held over the frame.
std::vector<double> bob(const std::shared_ptr<WakeField>& field, double amplitude_m) {
  World world;
  Held cube(world, box(btVector3(0.5, 0.5, 0.5)), field);
  const double omega = bobbingFrequency(*field), duration = kPeriods * 2 * kPi / omega;
  const int frames = int(std::ceil(duration / kFrame_s));
  std::vector<double> velocity;
  for (int f = 0; f < frames; ++f) {
    const double t = f * kFrame_s, mid = t + kFrame_s / 2;
    const double y = amplitude_m * std::pow(std::sin(kPi * t / duration), 2) * std::sin(omega * t);
    const double envelope = std::pow(std::sin(kPi * mid / duration), 2);
    const double envelopeRate = kPi / duration * std::sin(2 * kPi * mid / duration);
    velocity.push_back(amplitude_m * (envelopeRate * std::sin(omega * mid) + envelope * omega * std::cos(omega * mid)));
    cube.place(btVector3(0, btScalar(y), 0), btVector3(0, btScalar(velocity.back()), 0), t);
    field->update(t, (f + 1) * kFrame_s);
  }
  field->remove(cube.action);
  return velocity;
}

/// Runs the field free over `frames` frames from its time (a whole number
/// of frames).
void runFree(WakeField& field, int frames) {
  const int first = int(std::lround(field.time_s() / kFrame_s));
  for (int f = first; f < first + frames; ++f) field.update(f * kFrame_s, (f + 1) * kFrame_s);
}

/// Calls `visit(east, north, height)` for each node of the window [m].
template <class Visit>
void forEachNode(const WakeField& field, Visit&& visit) {
  const WakeFieldSettings& s = field.settings();
  const double west = s.centreEast_m - s.size_m / 2, south = s.centreNorth_m - s.size_m / 2;
  for (int j = 0; j < field.nodesPerSide(); ++j)
    for (int i = 0; i < field.nodesPerSide(); ++i) {
      const double x = west + i * s.cellSize_m, y = south + j * s.cellSize_m;
      visit(x, y, double(field.wakeHeight_m(btScalar(x), btScalar(y), field.time_s())));
    }
}

/// The radius [m] of the ring's centroid: `sum r eta^2 / sum eta^2` over
/// the nodes within `radius_m` of the origin. The elevation's square is the
/// potential energy, half the energy of free waves, so this is the centroid
/// of the energy.
double ringRadius(const WakeField& field, double radius_m) {
  double sum = 0, first = 0;
  forEachNode(field, [&](double x, double y, double h) {
    const double r = std::hypot(x, y);
    if (r > radius_m) return;
    sum += h * h;
    first += r * h * h;
  });
  return first / sum;
}

/// The mean group velocity [m/s] of the energy a source radiates, from
/// its rate held over each frame (`rate`, any unit): each mode k gets the
/// energy `g |S(omega_k)|^2` (the forced oscillator), and the modes between
/// omega and omega + d omega number as `k dk ~ omega^3 d omega`, so the
/// energy radiated at omega goes as `omega^3 |S(omega)|^2` (Newman,
/// "Marine Hydrodynamics", 1977, §6.17), and travels at g / (2 omega). The
/// depth weight is left out: the field weights a band's waves alike (the
/// packet lies in one band; docs/wakes.md, "Depth").
double meanGroupVelocity(const std::vector<double>& rate, double g, double omegaMax_radps) {
  double energy = 0, flux = 0;
  constexpr int kSteps = 1000;
  for (int s = 0; s < kSteps; ++s) {
    const double omega = omegaMax_radps * (s + 0.5) / kSteps;
    std::complex<double> sum = 0;
    for (std::size_t f = 0; f < rate.size(); ++f) sum += rate[f] * std::polar(1.0, -omega * double(f) * kFrame_s);
    // A rate held over each frame: its transform times (1 - e^{-i w dt}) / (i w).
    const double held = std::norm(sum) * 2 * (1 - std::cos(omega * kFrame_s)) / (omega * omega);
    energy += omega * omega * omega * held;
    flux += omega * omega * omega * held * g / (2 * omega);
  }
  return flux / energy;
}

TEST(WakeWaves, ABobbingSourcesRingTravelsAtTheGroupVelocity) {
  // A source bobbing at omega radiates a ring of waves that travels at the
  // group velocity g / (2 omega) (deep water: Lighthill, "Waves in Fluids",
  // 1978, §3.10; Newman, "Marine Hydrodynamics", 1977, ch. 6). The ring's
  // energy centroid, measured 1 to 7 s after the source stopped (before
  // the ring's front reaches the 1 m absorbing band), moves at the packet's
  // mean group velocity: a little below g / (2 omega), since a packet
  // kPeriods long holds a band of frequencies and radiates the higher ones
  // more strongly.
  auto field = smallWindow(1);
  const double g = field->settings().gravity_mps2, omega = bobbingFrequency(*field);
  const std::vector<double> rate = bob(field, 0.05);
  double st = 0, sr = 0, stt = 0, str = 0;
  for (int s = 1; s <= 7; ++s) {
    runFree(*field, 30);
    const double t = s, r = ringRadius(*field, 14.5);
    st += t;
    sr += r;
    stt += t * t;
    str += t * r;
  }
  const double speed = (7 * str - st * sr) / (7 * stt - st * st);
  const double omegaMax = std::sqrt(g * kPi / (2 * field->settings().cellSize_m));
  reportFigure("ring's speed against g / (2 omega) [m/s]", speed, g / (2 * omega));
  reportFigure("ring's speed against the packet's mean group velocity [m/s]", speed,
               meanGroupVelocity(rate, g, omegaMax));
  EXPECT_NEAR(speed, g / (2 * omega), 0.03 * g / (2 * omega));
  EXPECT_NEAR(speed, meanGroupVelocity(rate, g, omegaMax), 0.005 * g / (2 * omega));
}

}  // namespace
}  // namespace keel::test
