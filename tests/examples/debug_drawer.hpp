#pragma once
// Debug drawing a Keel boat through Bullet (docs/integration.md, "Debug
// drawing"): the smallest btIDebugDraw that sees Keel's lines.

#include <btBulletDynamicsCommon.h>

#include <vector>

namespace game {

/// Keeps the lines Bullet and Keel draw, for the game's renderer.
class LineList final : public btIDebugDraw {
 public:
  struct Line {
    btVector3 from, to, colour;  // world [m]; red, green, blue in 0..1
  };
  std::vector<Line> lines;

  void drawLine(const btVector3& from, const btVector3& to, const btVector3& colour) override {
    lines.push_back({from, to, colour});
  }
  void drawContactPoint(const btVector3& at, const btVector3& normal, btScalar, int, const btVector3& colour) override {
    drawLine(at, at + normal * btScalar(0.2), colour);
  }
  void reportErrorWarning(const char*) override {}
  void draw3dText(const btVector3&, const char*) override {}
  void setDebugMode(int mode) override { mode_ = mode; }
  [[nodiscard]] int getDebugMode() const override { return mode_; }

 private:
  // debugDrawWorld() calls the actions' debugDraw, Keel's among them, only
  // when the mode has DBG_DrawWireframe, DBG_DrawAabb or DBG_DrawNormals.
  int mode_ = DBG_DrawWireframe;
};

/// This frame's debug lines of `world`: Bullet's collision shapes (white
/// wireframe) and, for every Keel boat, its submerged pieces (blue), its
/// waterline (orange) and its force arrows.
inline void drawDebug(btDiscreteDynamicsWorld& world, LineList& drawer) {
  drawer.lines.clear();
  world.setDebugDrawer(&drawer);
  world.debugDrawWorld();
  world.setDebugDrawer(nullptr);
}

}  // namespace game
