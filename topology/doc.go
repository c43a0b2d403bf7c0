// Package topology holds the router-level networks of the simulator and the deadlock
// checker: k-ary n-cube tori and meshes of any sides, the butterfly fat-tree of
// Greenberg and Oh (seed 000, section B.1), and any MODEL.md network.
//
// Every node is a router. A router has output ports numbered 0 .. Ports(node)-1 and
// input ports numbered 0 .. InPorts(node)-1; Link(node, port) names the router behind
// an output port and the input port the link enters there. Terminal nodes also have
// an injection port and an ejection port, which are not numbered among these.
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
//     node is a terminal.
//
// Cost: Link, Ports and InPorts are O(1) table lookups; building a network takes
// O(nodes * ports) time and memory.
package topology
