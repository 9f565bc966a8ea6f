#include <keel/keel.hpp>
#include <btBulletDynamicsCommon.h>
#include <cstdio>

int main() {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
  world.setGravity(btVector3(0, -9.81f, 0));

  // A 4 m x 1 m x 2 m pontoon of 2 t; its hull in the body's centre-of-mass frame.
  btBoxShape shape(btVector3(2, 0.5f, 1));
  btVector3 inertia;
  shape.calculateLocalInertia(2000, inertia);
  btRigidBody body(btRigidBody::btRigidBodyConstructionInfo(2000, nullptr, &shape, inertia));
  body.setDamping(0.5f, 0.5f);  // Keel's force stays exact under Bullet's damping
  world.addRigidBody(&body);
  btTriangleMesh mesh;
  keel::appendBox(mesh, btVector3(2, 0.5f, 1));

  auto hull = std::make_shared<keel::Hull>(mesh);  // validates; throws keel::HullError
  keel::WaterAction boat(&body, hull, [](btScalar x, btScalar z, btScalar t) { return btScalar(0); });
  world.addAction(&boat);  // then stepSimulation as usual
  for (int i = 0; i < 1200; ++i) world.stepSimulation(1.0f / 60, 4, 1.0f / 240);

  std::printf("draft %.3f m (expected 0.244 m), status: %s\n", 0.5 - body.getCenterOfMassPosition().y(),
              boat.status().describe().c_str());
  world.removeAction(&boat);
  world.removeRigidBody(&body);
}
