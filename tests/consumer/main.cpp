#include <btBulletDynamicsCommon.h>
#include <cstdio>
#include <keel/keel.hpp>

int main() {  // A Bullet world as usual, with a 4 m x 1 m x 2 m pontoon of 2 t.
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
  btBoxShape shape(btVector3(2, 0.5f, 1));
  btVector3 inertia;
  shape.calculateLocalInertia(2000, inertia);
  btRigidBody body(btRigidBody::btRigidBodyConstructionInfo(2000, nullptr, &shape, inertia));
  world.addRigidBody(&body);

  btTriangleMesh mesh;  // the hull, in the body's centre-of-mass frame
  keel::appendBox(mesh, btVector3(2, 0.5f, 1));
  auto hull = std::make_shared<keel::Hull>(mesh);  // validates; throws keel::HullError
  keel::WaterAction boat(&body, hull, [](btScalar /*x*/, btScalar /*z*/, double /*t*/) { return btScalar(0); });
  world.addAction(&boat);  // then stepSimulation as usual
  for (int i = 0; i < 1200; ++i) world.stepSimulation(1.0f / 60, 4, 1.0f / 240);

  std::printf("draft %.3f m (expected 0.244 m), %s\n", 0.5 - body.getCenterOfMassPosition().y(),
              boat.status().describe().c_str());
  world.removeAction(&boat);
  world.removeRigidBody(&body);
}
