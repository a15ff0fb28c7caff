#!/usr/bin/env python3
"""How long webhook servers take on the wire, from a packet capture of the loopback interface.

For each server port, per TCP connection, an exchange is a run of request bytes from the API
server followed by response bytes; its server time is from the last request byte to the first
response byte. The first exchange of each connection (the TLS handshake) is left out.

    tcpdump -i lo -nn -s 100 -w webhooks.pcap 'tcp and not port 16443 and not port 2379'
    webhook-wire-times.py webhooks.pcap --since 2026-12-03T08:41:30Z 35443 19443
"""
import argparse
import datetime
import re
import subprocess

PACKET = re.compile(r"^(\d+\.\d+) IP6? \S+?\.(\d+) > \S+?\.(\d+): .* length (\d+)")


def server_times(pcap, port, since):
    lines = subprocess.run(["tcpdump", "-r", pcap, "-tt", "-nn", f"tcp port {port}"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    connections, times = {}, []
    for line in lines:
        match = PACKET.match(line)
        if not match or int(match[4]) == 0:
            continue
        at, source, destination = float(match[1]), match[2], match[3]
        to_server = destination == port
        connection = connections.setdefault(source if to_server else destination,
                                            {"requesting": False, "exchanges": 0})
        if to_server:
            connection["requesting"], connection["last_request_byte"] = True, at
        elif connection["requesting"]:
            connection["requesting"] = False
            connection["exchanges"] += 1
            if connection["exchanges"] > 1 and connection["last_request_byte"] >= since:
                times.append(at - connection["last_request_byte"])
    return sorted(times), len(connections)


def quantile(values, q):
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pcap")
    parser.add_argument("ports", nargs="+")
    parser.add_argument("--since", help="ISO time: count only exchanges from then on (the measured blocks)")
    args = parser.parse_args()
    since = datetime.datetime.fromisoformat(args.since.replace("Z", "+00:00")).timestamp() if args.since else 0
    for port in args.ports:
        times, connections = server_times(args.pcap, port, since)
        if not times:
            print(f"port {port}: no exchanges")
            continue
        print(f"port {port}: {len(times)} exchanges on {connections} connections; server time p50 "
              f"{quantile(times, .5):.2f} ms, p90 {quantile(times, .9):.2f} ms, p99 {quantile(times, .99):.2f} ms, "
              f"max {times[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
