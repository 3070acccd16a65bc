import { describe, expect, it } from 'vitest';
import { m3uPlaylist, packCredits, panelUrl, playerOf, playlistUrl, portalUrl } from './panel';

const login = { host: 'tv.example.net:8080', username: 'TV-12345678', password: '123456789012' };

describe('the panel URL conventions (integrations reference §6)', () => {
  it('Xtream server, M3U get.php with m3u_plus and ts, and the MAG portal /c/', () => {
    expect(panelUrl(login.host)).toBe('http://tv.example.net:8080');
    expect(playlistUrl(login)).toBe('http://tv.example.net:8080/get.php?username=TV-12345678&password=123456789012&type=m3u_plus&output=ts');
    expect(portalUrl(login.host)).toBe('http://tv.example.net:8080/c/');
  });

  it('the M3U file: #EXTM3U with the EPG, one #EXTINF entry, then its URL; a quote or comma in the name cannot break a line', () => {
    expect(m3uPlaylist(login, 'Say "hi", TV').split('\n')).toEqual([
      '#EXTM3U url-tvg="http://tv.example.net:8080/xmltv.php?username=TV-12345678&password=123456789012"',
      '#EXTINF:-1 tvg-name="Say  hi , TV" group-title="TV Checkout",Say  hi   TV',
      'http://tv.example.net:8080/get.php?username=TV-12345678&password=123456789012&type=m3u_plus&output=ts',
      '',
    ]);
  });
});

describe('players and credit packs', () => {
  it('knows the offered players by id, and no other', () => {
    expect(playerOf('mag')).toMatchObject({ name: 'MAG', kind: 'mag' });
    expect(playerOf('vlc')?.kind).toBe('m3u');
    expect(playerOf('tivimate')?.kind).toBe('xtream');
    expect(playerOf('winamp')).toBeNull();
  });

  it("reads a pack's credits from its name, and none from another product", () => {
    expect(packCredits('Reseller 120 credits')).toBe(120);
    expect(packCredits('Reseller 1 credit')).toBe(1);
    expect(packCredits('Reseller panel activation')).toBe(0);
  });
});
