/**
 * The IPTV panel's URL conventions (Xtream Codes panels and MAG/Stalker portals; see the integrations
 * reference §6), and the players the success page guides through them.
 */

/** A service's login on the panel. */
export interface PanelLogin {
  /** The service's server host as the billing system names it (host or host:port). */
  host: string;
  username: string;
  password: string;
}

/** The panel's address, as Xtream apps ask for it ("server URL"): panels answer plain http on their host. */
export function panelUrl(host: string): string {
  return `http://${host}`;
}

/** The playlist in the panel's M3U convention: get.php, m3u_plus (names, logos, groups), MPEG-TS streams. */
export function playlistUrl({ host, username, password }: PanelLogin): string {
  const query = new URLSearchParams({ username, password, type: 'm3u_plus', output: 'ts' });
  return `${panelUrl(host)}/get.php?${query}`;
}

/** The panel's programme guide (XMLTV). */
export function epgUrl({ host, username, password }: PanelLogin): string {
  return `${panelUrl(host)}/xmltv.php?${new URLSearchParams({ username, password })}`;
}

/** The MAG/Stalker portal a set-top box is pointed at. */
export function portalUrl(host: string): string {
  return `${panelUrl(host)}/c/`;
}

/** Quotes an #EXTINF attribute value: M3U attributes end at the next double quote, and a line at its end. */
const attribute = (value: string) => value.replace(/["\r\n]/g, ' ');

/**
 * The M3U file the checkout serves: the header names the panel's EPG, and one entry points at the
 * panel's own playlist (players that open a playlist URL follow it; the checkout never fetches it).
 */
export function m3uPlaylist(login: PanelLogin, name: string): string {
  const title = attribute(name);
  return [
    `#EXTM3U url-tvg="${epgUrl(login)}"`,
    `#EXTINF:-1 tvg-name="${title}" group-title="TV Checkout",${title.replace(/,/g, ' ')}`,
    playlistUrl(login),
    '',
  ].join('\n');
}

/** How a player is set up: a playlist URL, an Xtream login (server, username, password), or a MAG portal. */
export type PlayerKind = 'm3u' | 'xtream' | 'mag';

/** The players the success page offers (names are the same in every language). */
export const PLAYERS = [
  { id: 'tivimate', name: 'TiviMate', platforms: 'Android TV, Fire TV', kind: 'xtream' },
  { id: 'smarters', name: 'IPTV Smarters Pro', platforms: 'Android, iOS, Windows, macOS', kind: 'xtream' },
  { id: 'gse', name: 'GSE Smart IPTV', platforms: 'iOS, Apple TV', kind: 'xtream' },
  { id: 'kodi', name: 'Kodi', platforms: 'Android, Windows, macOS, Linux', kind: 'm3u' },
  { id: 'vlc', name: 'VLC', platforms: 'Windows, macOS, Linux', kind: 'm3u' },
  { id: 'mag', name: 'MAG', platforms: 'MAG 322, MAG 424, MAG 524', kind: 'mag' },
] as const satisfies readonly { id: string; name: string; platforms: string; kind: PlayerKind }[];

export type PlayerId = (typeof PLAYERS)[number]['id'];

/** The player of this id, or null for an id the page does not offer. */
export function playerOf(id: string): (typeof PLAYERS)[number] | null {
  return PLAYERS.find((player) => player.id === id) ?? null;
}

/** The credits a reseller credit pack adds, as its product name gives them ("Reseller 120 credits"); 0 for any other product. */
export function packCredits(productName: string): number {
  const match = /(\d+)\s+credits?\b/i.exec(productName);
  return match ? Number(match[1]) : 0;
}
