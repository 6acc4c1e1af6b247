import { expect, test } from 'vitest';
import { nodePortDestinations } from '../../../../tools/cluster/kube-proxy-rules.mjs';

// What iptables-save -t nat printed on the local cluster for a release of two pods on the
// NodePort 30082 (the metrics Service beside it, another NodePort's rules after it).
const PROGRAMMED = `*nat
:KUBE-NODEPORTS - [0:0]
-A KUBE-EXT-WSU62BP3RLPAOLON -m comment --comment "masquerade traffic for rf-hammer/meridian:http external destinations" -j KUBE-MARK-MASQ
-A KUBE-EXT-WSU62BP3RLPAOLON -j KUBE-SVC-WSU62BP3RLPAOLON
-A KUBE-NODEPORTS -d 127.0.0.0/8 -p tcp -m comment --comment "rf-hammer/meridian:http" -m tcp --dport 30082 -m nfacct --nfacct-name  localhost_nps_accepted_pkts -j KUBE-EXT-WSU62BP3RLPAOLON
-A KUBE-NODEPORTS -p tcp -m comment --comment "rf-hammer/meridian:http" -m tcp --dport 30082 -j KUBE-EXT-WSU62BP3RLPAOLON
-A KUBE-NODEPORTS -p tcp -m comment --comment "other/meridian:http" -m tcp --dport 30083 -j KUBE-EXT-OTHER0000000000000
-A KUBE-SEP-4FAR3LFKX6R4S7XF -s 198.18.64.19/32 -m comment --comment "rf-hammer/meridian-metrics:metrics" -j KUBE-MARK-MASQ
-A KUBE-SEP-4FAR3LFKX6R4S7XF -p tcp -m comment --comment "rf-hammer/meridian-metrics:metrics" -m tcp -j DNAT --to-destination 198.18.64.19:9464
-A KUBE-SEP-MPCDGCP4TGFEM6MT -s 198.18.64.19/32 -m comment --comment "rf-hammer/meridian:http" -j KUBE-MARK-MASQ
-A KUBE-SEP-MPCDGCP4TGFEM6MT -p tcp -m comment --comment "rf-hammer/meridian:http" -m tcp -j DNAT --to-destination 198.18.64.19:3000
-A KUBE-SEP-UZXWODN6IUSOG6A5 -s 198.18.64.20/32 -m comment --comment "rf-hammer/meridian:http" -j KUBE-MARK-MASQ
-A KUBE-SEP-UZXWODN6IUSOG6A5 -p tcp -m comment --comment "rf-hammer/meridian:http" -m tcp -j DNAT --to-destination 198.18.64.20:3000
-A KUBE-SVC-RTRJMQURDEDBKFP4 -m comment --comment "rf-hammer/meridian-metrics:metrics -> 198.18.64.19:9464" -j KUBE-SEP-4FAR3LFKX6R4S7XF
-A KUBE-SVC-WSU62BP3RLPAOLON ! -s 198.18.64.0/24 -d 198.18.128.38/32 -p tcp -m comment --comment "rf-hammer/meridian:http cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ
-A KUBE-SVC-WSU62BP3RLPAOLON -m comment --comment "rf-hammer/meridian:http -> 198.18.64.20:3000" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-UZXWODN6IUSOG6A5
-A KUBE-SVC-WSU62BP3RLPAOLON -m comment --comment "rf-hammer/meridian:http -> 198.18.64.19:3000" -j KUBE-SEP-MPCDGCP4TGFEM6MT
COMMIT
`;

test("a NodePort's destinations are the DNATs of the endpoints its Service chain picks from", () => {
  expect(nodePortDestinations(PROGRAMMED, 30082)).toEqual(['198.18.64.19:3000', '198.18.64.20:3000']);
});

test('a NodePort kube-proxy has not programmed, or one whose Service has no endpoint chain yet, has none', () => {
  expect(nodePortDestinations(PROGRAMMED, 30080)).toEqual([]);
  // 30083's KUBE-EXT chain is not in the table: nothing to follow.
  expect(nodePortDestinations(PROGRAMMED, 30083)).toEqual([]);
  // A port that only starts like another one.
  expect(nodePortDestinations(PROGRAMMED, 3008)).toEqual([]);
});
