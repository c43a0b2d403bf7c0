// Package topology holds the router-level networks of the simulator and the deadlock
// checker: k-ary n-cube tori and meshes of any sides, the butterfly fat-tree of
// Greenberg and Oh (seed 000, section B.1), any MODEL.md network, and the networks
// of issue 25: the dragonfly (Kim, Dally, Scott and Abts, ISCA 2008; dragonfly.go),
// HyperX and the flattened butterfly (Ahn et al., SC 2009; Kim, Dally and Abts, ISCA
// 2007; hyperx.go), the k-ary n-fly butterfly and the concentrated mesh (Dally and
// Towles 2004; fly.go, grid.go), and networks from files in the MODEL.md style
// (netfile.go) or BookSim2's anynet format (anynet.go). Parse reads a spec
// ("dragonfly:a=8,p=4,h=4"); each file registers its kind, and its doc gives the
// parameters, the addressing and the port order.
//
// Every node is a router. A router has output ports numbered 0 .. Ports(node)-1 and
// input ports numbered 0 .. InPorts(node)-1; Link(node, port) names the router behind
// an output port and the input port the link enters there. Terminals attach apart
// from these ports (terminals.go): TerminalsOf(net) says at which router, and by
// which of its injection and ejection ports, each terminal injects and ejects. On
// the seeds' networks a terminal node has one terminal; a concentrated network has
// several per router (numbered router by router, as BookSim2 numbers them), and a
// butterfly injects at its first stage and ejects at its last. Latency(net, node,
// port) is a link's latency where the network sets one (a dragonfly's local and
// global channels, a file's weighted links).
//
// Port conventions:
//
//   - Grid (torus or mesh, n dimensions): output port 2i goes one step in the +
//     direction of dimension i, port 2i+1 one step in the - direction. A link leaving
//     by port p enters its neighbour by the port of the opposite direction (2i+1 for
//     2i), so input port q of a node is fed by the neighbour that lies in q's
//     direction. On a mesh the ports that would leave the mesh have no link
//     (Link returns next = -1). Node numbers put dimension 0 fastest:
//     node = sum_i c_i * prod_{j<i} side_j, as BookSim2 numbers its k-ary n-cubes.
//     A torus ring of side 2 has two parallel links between its two nodes, one per
//     direction, as BookSim2's has.
//   - FatTree: processors (level 0) are nodes 0 .. N-1 and the only terminals; a
//     processor has one port, 0, to its switch. A switch has ports 0..3 down to its
//     children and, below the top level, ports 4 and 5 up to its two parents.
//   - General (a MODEL.md network): the output ports of a node are its outgoing
//     edges in edge order, its input ports its incoming edges in edge order; every
//     node is a terminal (a network file may say how many terminals each has).
//   - Dragonfly, HyperX, Fly: see their files.
//
// Cost: Link, Ports and InPorts are O(1) table lookups; building a network takes
// O(nodes * ports) time and memory.
package topology
