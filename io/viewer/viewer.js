// prmkit's viewer: draws the JSON that io/viewer_page.cpp embeds in the page
// (link meshes in their own frames, their poses per frame as column-major 4x4
// matrices computed by prmkit, obstacles, roadmap) with three.js.
'use strict';
(function () {
  const status = (text) => { document.title = 'prmkit viewer: ' + text; };
  window.addEventListener('error', (event) => {
    status('error: ' + event.message);
    document.getElementById('note').textContent = 'viewer error: ' + event.message;
  });

  const data = JSON.parse(document.getElementById('prmkit-data').textContent);
  const view = document.getElementById('view');
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setSize(view.clientWidth, view.clientHeight);
  view.appendChild(renderer.domElement);

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xffffff);
  const low = new THREE.Vector3().fromArray(data.bounds.min);
  const high = new THREE.Vector3().fromArray(data.bounds.max);
  const center = low.clone().add(high).multiplyScalar(0.5);
  const size = Math.max(high.clone().sub(low).length(), 1e-9);

  scene.add(new THREE.AmbientLight(0xffffff, 0.55));
  const sun = new THREE.DirectionalLight(0xffffff, 0.6);
  sun.position.set(0.4, -0.7, 1.0);
  scene.add(sun);
  const fill = new THREE.DirectionalLight(0xffffff, 0.25);
  fill.position.set(-0.6, 0.5, -0.3);
  scene.add(fill);

  const camera = new THREE.PerspectiveCamera(40, view.clientWidth / view.clientHeight, size * 1e-3, size * 20);
  camera.up.set(0, 0, 1);
  if (data.planar) {
    camera.up.set(0, 1, 0);
    camera.position.set(center.x, center.y, center.z + 1.5 * size);
  } else {
    camera.position.set(center.x + 0.9 * size, center.y - 1.2 * size, center.z + 0.8 * size);
  }
  // The scene is drawn right of the legend panel, not under it.
  function frameView() {
    const width = view.clientWidth, height = view.clientHeight;
    camera.aspect = width / height;
    camera.setViewOffset(width, height, -Math.min(220, 0.18 * width), 0, width, height);
    camera.updateProjectionMatrix();
    renderer.setSize(width, height);
  }
  frameView();
  const controls = new THREE.OrbitControls(camera, renderer.domElement);
  controls.target.copy(center);
  controls.update();

  // Flat 2D bodies are seen from both sides; robots are lifted above the
  // obstacles' plane so they are not hidden in it.
  const side = data.planar ? THREE.DoubleSide : THREE.FrontSide;
  const lift = data.planar ? 2e-3 * size : 0;
  const material = (color, opacity) => new THREE.MeshLambertMaterial({
    color, side, transparent: opacity < 1, opacity,
    depthWrite: opacity >= 1 });

  function meshGeometry(item) {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.Float32BufferAttribute(item.vertices, 3));
    geometry.setIndex(item.triangles);
    geometry.computeVertexNormals();
    return geometry;
  }
  function placed(object, matrix, offset) {
    object.matrixAutoUpdate = false;
    object.matrix.fromArray(matrix, offset || 0);
    return object;
  }

  const obstacleMaterial = material(0x8a8f98, 1);
  for (const o of data.obstacles) {
    let geometry;
    if (o.kind === 'box') geometry = new THREE.BoxBufferGeometry(o.size[0], o.size[1], o.size[2]);
    else if (o.kind === 'sphere') geometry = new THREE.SphereBufferGeometry(o.radius, 40, 20);
    else if (o.kind === 'cylinder') geometry = new THREE.CylinderBufferGeometry(o.radius, o.radius, o.length, 40).rotateX(Math.PI / 2);
    else geometry = meshGeometry(o);
    const mesh = placed(new THREE.Mesh(geometry, obstacleMaterial), o.pose);
    mesh.name = 'obstacle ' + o.name;
    scene.add(mesh);
  }

  const linkGeometries = data.links.map(meshGeometry);
  // One robot: a group of link meshes, each placed by its pose matrix.
  function robot(color, opacity, poses) {
    const group = new THREE.Group();
    group.position.z = lift;
    const m = material(color, opacity);
    linkGeometries.forEach((geometry, i) => group.add(placed(new THREE.Mesh(geometry, m), poses, 16 * i)));
    scene.add(group);
    return group;
  }
  function pose(group, poses) {
    group.children.forEach((mesh, i) => { mesh.matrix.fromArray(poses, 16 * i); });
  }

  const ends = new THREE.Group();
  scene.add(ends);
  ends.add(robot(0x22aa22, 0.45, data.start));
  ends.add(robot(0xdd2222, 0.45, data.goal));
  const witnesses = new THREE.Group();
  scene.add(witnesses);
  for (const w of data.witnesses) witnesses.add(robot(0xff8800, 0.22, w));
  const moving = data.frames.length > 0 ? robot(0x3366cc, 1, data.frames[0].poses) : null;
  // verify --html: the first configuration found in collision.
  if (data.collision) robot(0xe0005a, 0.85, data.collision);

  const stateColors = { free: 0x6f8fb0, verified: 0x2a9d4a, tentative: 0xe0b000, unchecked: 0xcccccc, colliding: 0xd03030 };
  const roadmap = new THREE.Group();
  roadmap.position.z = 2 * lift;
  scene.add(roadmap);
  const points = data.roadmap.points;
  if (points.length > 0) {
    const vertexGeometry = new THREE.BufferGeometry();
    vertexGeometry.setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
    roadmap.add(new THREE.Points(vertexGeometry, new THREE.PointsMaterial({ color: 0x334455, size: 3, sizeAttenuation: false })));
    const positions = [], colors = [];
    const e = data.roadmap.edges;
    for (let i = 0; i + 2 < e.length; i += 3) {
      const c = new THREE.Color(stateColors[e[i + 2]] || 0x999999);
      for (const v of [e[i], e[i + 1]]) {
        positions.push(points[3 * v], points[3 * v + 1], points[3 * v + 2]);
        colors.push(c.r, c.g, c.b);
      }
    }
    const edgeGeometry = new THREE.BufferGeometry();
    edgeGeometry.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
    edgeGeometry.setAttribute('color', new THREE.Float32BufferAttribute(colors, 3));
    roadmap.add(new THREE.LineSegments(edgeGeometry, new THREE.LineBasicMaterial({ vertexColors: THREE.VertexColors, transparent: true, opacity: data.planar ? 0.7 : 0.35 })));
  }
  // Edges found in collision (removed from the roadmap): segment ends, six numbers per edge.
  if (data.roadmap.colliding.length > 0) {
    const collidingGeometry = new THREE.BufferGeometry();
    collidingGeometry.setAttribute('position', new THREE.Float32BufferAttribute(data.roadmap.colliding, 3));
    roadmap.add(new THREE.LineSegments(collidingGeometry, new THREE.LineBasicMaterial({ color: stateColors.colliding, transparent: true, opacity: 0.3 })));
  }
  if (data.path.length > 1) {
    const pathGeometry = new THREE.BufferGeometry().setFromPoints(data.path.map((p) => new THREE.Vector3().fromArray(p)));
    const pathLine = new THREE.Line(pathGeometry, new THREE.LineBasicMaterial({ color: 0x001a99 }));
    pathLine.position.z = 3 * lift;
    scene.add(pathLine);
  }

  // Legend: the run's numbers as prmkit counted them, and what each colour means.
  const legend = document.getElementById('legend');
  for (const [label, value] of data.legend) {
    const row = legend.insertRow();
    row.insertCell().textContent = label;
    row.insertCell().textContent = value;
  }
  const keys = [['start', 0x22aa22], ['goal', 0xdd2222], ['robot on the path', 0x3366cc], ['path', 0x001a99], ['obstacles', 0x8a8f98]];
  if (data.witnesses_found > 0)
    keys.push(['collision found by the planner (' + data.witnesses.length + ' of ' + data.witnesses_found + ' shown)', 0xff8800]);
  if (data.collision) keys.push(['first colliding configuration', 0xe0005a]);
  if (data.roadmap.points.length > 0 || data.roadmap.colliding.length > 0)
    for (const state of Object.keys(stateColors))
      keys.push([state === 'colliding' ? 'edge found colliding (' + data.roadmap.colliding.length / 6 + ' of ' + data.witnesses_found + ' drawn)' : 'edge ' + state, stateColors[state]]);
  const keyBox = document.getElementById('keys');
  for (const [label, color] of keys) {
    const key = document.createElement('span');
    key.className = 'key';
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = '#' + new THREE.Color(color).getHexString();
    key.append(swatch, label);
    keyBox.append(key, ' ');
  }
  const notes = [];
  if (data.roadmap.note) notes.push(data.roadmap.note);
  if (data.frames.length === 0) notes.push('no path: nothing to animate');
  document.getElementById('note').textContent = notes.join('; ');

  // Playback: the whole path in about 8 s at speed 1.
  const slider = document.getElementById('slider');
  const frameLabel = document.getElementById('frame');
  const play = document.getElementById('play');
  slider.max = String(Math.max(data.frames.length - 1, 0));
  let playing = false, position = 0, last = null;
  function showFrame(index) {
    if (!moving) return;
    index = Math.max(0, Math.min(data.frames.length - 1, index));
    pose(moving, data.frames[index].poses);
    slider.value = String(index);
    frameLabel.textContent = 'frame ' + (index + 1) + ' of ' + data.frames.length;
  }
  play.disabled = !moving;
  play.addEventListener('click', () => {
    playing = !playing;
    play.textContent = playing ? 'pause' : 'play';
    last = null;
    if (playing && position >= data.frames.length - 1) position = 0;
  });
  slider.addEventListener('input', () => { position = Number(slider.value); showFrame(position); });
  const toggle = (id, object) => document.getElementById(id).addEventListener('change', (event) => { object.visible = event.target.checked; });
  toggle('show-roadmap', roadmap);
  toggle('show-witnesses', witnesses);
  toggle('show-ends', ends);
  window.addEventListener('resize', frameView);
  function animate(time) {
    if (playing && moving) {
      if (last !== null) position += (time - last) / 1000 * Number(document.getElementById('speed').value) * data.frames.length / 8;
      last = time;
      if (position >= data.frames.length - 1) { position = data.frames.length - 1; playing = false; play.textContent = 'play'; }
      showFrame(Math.floor(position));
    }
    controls.update();
    renderer.render(scene, camera);
    requestAnimationFrame(animate);
  }
  // #frame=K opens the page at frame K (a link to a moment of the path).
  const opened = /^#frame=(\d+)$/.exec(window.location.hash);
  position = opened ? Math.min(Number(opened[1]), Math.max(data.frames.length - 1, 0)) : 0;
  showFrame(position);
  renderer.render(scene, camera);

  // Self-test (#selftest=K): the world position of every link's first vertex
  // at frame K as three.js places it, and the number of distinct colours
  // rendered, written into the page for tests that read it back.
  const selftest = /^#selftest=(\d+)$/.exec(window.location.hash);
  if (selftest) {
    showFrame(Number(selftest[1]));
    scene.updateMatrixWorld(true);
    renderer.render(scene, camera);
    const vertices = moving ? moving.children.map((mesh, i) =>
      mesh.localToWorld(new THREE.Vector3().fromArray(data.links[i].vertices, 0)).toArray()) : [];
    const gl = renderer.getContext();
    const width = gl.drawingBufferWidth, height = gl.drawingBufferHeight;
    const pixels = new Uint8Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    const colours = new Set();
    for (let i = 0; i < pixels.length; i += 4) colours.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
    const out = document.createElement('pre');
    out.id = 'selftest';
    out.textContent = JSON.stringify({ lift, vertices, colours: colours.size, pixels: width * height });
    document.body.appendChild(out);
  }
  status('ready');
  requestAnimationFrame(animate);
})();
