/**
 * Ports browsers refuse to open for a web page (`net::ERR_UNSAFE_PORT` in Chromium, "This address
 * is restricted" in Firefox): the Fetch standard's "bad ports", each the well-known port of a
 * service a page must not be able to talk to. The registry's API keeps its 6000 (scripts and the
 * seed's curl flow use it), so `npm start` serves the catalogue on another port when the API's is
 * one of these (docs/web.md#opening-the-catalogue). `catalogue-port.test.ts` checks every entry
 * against the installed chromium.
 */
export const BROWSER_BLOCKED_PORTS: Readonly<Record<number, string>> = {
  1: "tcpmux",
  7: "echo",
  9: "discard",
  11: "systat",
  13: "daytime",
  15: "netstat",
  17: "qotd",
  19: "chargen",
  20: "ftp-data",
  21: "ftp",
  22: "ssh",
  23: "telnet",
  25: "smtp",
  37: "time",
  42: "name",
  43: "nicname",
  53: "domain",
  69: "tftp",
  77: "priv-rjs",
  79: "finger",
  87: "ttylink",
  95: "supdup",
  101: "hostname",
  102: "iso-tsap",
  103: "gppitnp",
  104: "acr-nema",
  109: "pop2",
  110: "pop3",
  111: "sunrpc",
  113: "auth",
  115: "sftp",
  117: "uucp-path",
  119: "nntp",
  123: "ntp",
  135: "epmap",
  137: "netbios-ns",
  139: "netbios-ssn",
  143: "imap",
  161: "snmp",
  179: "bgp",
  389: "ldap",
  427: "svrloc",
  465: "submissions",
  512: "exec",
  513: "login",
  514: "shell",
  515: "printer",
  526: "tempo",
  530: "courier",
  531: "chat",
  532: "netnews",
  540: "uucp",
  548: "afp",
  554: "rtsp",
  556: "remotefs",
  563: "nntps",
  587: "submission",
  601: "syslog-conn",
  636: "ldaps",
  989: "ftps-data",
  990: "ftps",
  993: "imaps",
  995: "pop3s",
  1719: "h323gatestat",
  1720: "h323hostcall",
  1723: "pptp",
  2049: "nfs",
  3659: "apple-sasl",
  4045: "npp",
  4190: "sieve",
  5060: "sip",
  5061: "sips",
  6000: "x11",
  6566: "sane-port",
  6665: "ircu",
  6666: "ircu",
  6667: "ircu",
  6668: "ircu",
  6669: "ircu",
  6679: "osaut",
  6697: "ircs-u",
  10080: "amanda",
};

/** Where `npm start` serves the catalogue when the API's port is one browsers refuse. */
export const DEFAULT_CATALOGUE_PORT = 6080;

/** The service a browser protects by refusing `port`, or undefined when browsers open it. */
export function browserRefusal(port: number): string | undefined {
  return BROWSER_BLOCKED_PORTS[port];
}

/**
 * The port of a listener of its own for the catalogue, given the API's port: the one asked for
 * (refused when browsers would refuse it; 0 picks a free one), else DEFAULT_CATALOGUE_PORT when
 * browsers refuse the API's port. Undefined: the API's listener serves the catalogue too.
 */
export function separateCataloguePort(apiPort: number, asked: number | undefined): number | undefined {
  if (asked !== undefined) {
    const service = browserRefusal(asked);
    if (service !== undefined)
      throw new Error(
        `the catalogue port ${asked} is one browsers refuse to open (it is ${service}'s); choose another with WEB_PORT / --web-port`,
      );
    return asked === apiPort && asked !== 0 ? undefined : asked;
  }
  return browserRefusal(apiPort) === undefined ? undefined : DEFAULT_CATALOGUE_PORT;
}
