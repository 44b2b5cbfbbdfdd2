import hashlib, json, base64, random
R=random.Random(10)
def lzb(d):
    n=0
    for b in d:
        if b==0: n+=8; continue
        return n+(8-b.bit_length())
    return n
def F(kind, comment, vecs):
    json.dump({"protocol":"bounty","kind":kind,"comment":comment,"vectors":vecs},open(f"/work/wt-bounty/vectors/bounty/{kind}.json","w"),indent=2)
# registration
vs=[]
for bits,tok in [(8,"reg-a1"),(12,"reg-0f9e"),(16,"reg-7c1d2e")]:
    n=0
    while lzb(hashlib.sha256((tok+str(n)).encode()).digest())<bits: n+=1
    d=hashlib.sha256((tok+str(n)).encode()).digest()
    vs.append({"id":f"valid-{bits}","comment":"first decimal nonce meeting pow_bits","flags":["valid"],"input":{"reg_token":tok,"nonce":str(n),"pow_bits":bits},"expected":{"digest":d.hex(),"leading_zero_bits":lzb(d),"valid":True}})
    # one short
    m=0
    while lzb(hashlib.sha256((tok+"x"+str(m)).encode()).digest())!=bits-1: m+=1
    d=hashlib.sha256((tok+"x"+str(m)).encode()).digest()
    vs.append({"id":f"one-bit-short-{bits}","comment":"exactly pow_bits-1 leading zero bits: rejected (bits, not hex digits)","flags":["invalid","boundary"],"input":{"reg_token":tok,"nonce":"x"+str(m),"pow_bits":bits},"expected":{"digest":d.hex(),"leading_zero_bits":bits-1,"valid":False}})
F("registration","Registration proof: sha256(utf8(reg_token + nonce)) with >= pow_bits leading zero BITS (BOUNTY-REG-POW). Expected values computed with Python's hashlib, independently of the Go reference.",vs)
# hash_preimage
vs=[]
for i,bits in enumerate([12,16,12]):
    pre=bytes(R.randrange(256) for _ in range(16))
    n=0
    while lzb(hashlib.sha256(pre+n.to_bytes(8,'big')).digest())<bits: n+=1
    vs.append({"id":f"valid-{i}-{bits}","comment":"nonce bytes appended to prefix bytes","flags":["valid"],"input":{"prefix_hex":pre.hex(),"difficulty_bits":bits,"nonce_hex":n.to_bytes(8,'big').hex()},"expected":{"valid":True,"reason":"ok"}})
    # string concat instead of bytes would be wrong: find nonce meeting bits over ascii concat but not bytes
    m=0
    while True:
        nh=m.to_bytes(4,'big').hex()
        if lzb(hashlib.sha256((pre.hex()+nh).encode()).digest())>=bits and lzb(hashlib.sha256(pre+bytes.fromhex(nh)).digest())<bits: break
        m+=1
    vs.append({"id":f"string-concat-{i}","comment":"meets the difficulty over the hex TEXT, not over the bytes: rejected","flags":["invalid"],"input":{"prefix_hex":pre.hex(),"difficulty_bits":bits,"nonce_hex":nh},"expected":{"valid":False,"reason":"wrong_solution"}})
vs.append({"id":"odd-hex","comment":"nonce_hex must be hex bytes","flags":["invalid"],"input":{"prefix_hex":"00ff","difficulty_bits":1,"nonce_hex":"abc"},"expected":{"valid":False,"reason":"bad_request"}})
F("hash_preimage","hash_preimage: sha256(bytes(prefix_hex) || bytes(nonce_hex)) with >= difficulty_bits leading zero bits (BOUNTY-PUZZLE-HASH). Computed with Python's hashlib.",vs)
# modular
p=2**127-1
vs=[]
for i in range(3):
    a=R.randrange(1,p); b=R.randrange(p); x=b*pow(a,p-2,p)%p
    assert a*x%p==b
    vs.append({"id":f"fermat-{i}","comment":"x = b * a^(p-2) mod p, as a decimal string","flags":["valid"],"input":{"a":str(a),"b":str(b),"p":str(p),"x":str(x)},"expected":{"x":str(x),"valid":True,"reason":"ok"}})
    vs.append({"id":f"off-by-one-{i}","comment":"x + 1 does not verify","flags":["invalid"],"input":{"a":str(a),"b":str(b),"p":str(p),"x":str((x+1)%p)},"expected":{"x":str(x),"valid":False,"reason":"wrong_solution"}})
a,b,pp=7,3,11; x=b*pow(a,pp-2,pp)%pp
vs.append({"id":"small-json-integer","comment":"x as a JSON integer is read too","flags":["valid"],"input":{"a":"7","b":"3","p":"11","x":x},"expected":{"x":str(x),"valid":True,"reason":"ok"}})
vs.append({"id":"leading-zero","comment":"a non-canonical decimal string is malformed","flags":["invalid"],"input":{"a":"7","b":"3","p":"11","x":"0"+str(x)},"expected":{"x":str(x),"valid":False,"reason":"bad_request"}})
F("modular","modular: a*x mod p == b, solved by the Fermat inverse; integers beyond 2^53 travel as decimal strings (BOUNTY-PUZZLE-MODULAR, BOUNTY-INTEGERS). Computed with Python's integers.",vs)
# decode
vs=[]
for i in range(3):
    seed=bytes(R.randrange(256) for _ in range(16)).hex()
    pt=bytes(R.randrange(256) for _ in range(20))
    pad=hashlib.sha256(bytes.fromhex(seed)).digest()
    ct=base64.b32encode(bytes(x^y for x,y in zip(pt,pad))).decode()
    vs.append({"id":f"valid-{i}","comment":"20-byte plaintext, canonical base32","flags":["valid"],"input":{"seed_hex":seed,"ciphertext_b32":ct,"plaintext_hex":pt.hex()},"expected":{"plaintext_hex":pt.hex(),"valid":True,"reason":"ok"}})
    wrongpad=hashlib.sha256(seed.encode()).digest()
    wrong=bytes(x^y for x,y in zip(base64.b32decode(ct),wrongpad)).hex()
    vs.append({"id":f"text-seed-{i}","comment":"XOR with sha256 of the seed's hex TEXT: rejected","flags":["invalid"],"input":{"seed_hex":seed,"ciphertext_b32":ct,"plaintext_hex":wrong},"expected":{"plaintext_hex":pt.hex(),"valid":False,"reason":"wrong_solution"}})
F("decode","decode: base32-decode ciphertext_b32, XOR with sha256(bytes(seed_hex)) (BOUNTY-PUZZLE-DECODE, BOUNTY-BASE32). Computed with Python's hashlib and base64.",vs)
# shamir (independent GF(2^8) with poly 0x11b)
def mul(a,b):
    p=0
    while b:
        if b&1: p^=a
        a<<=1
        if a&0x100: a^=0x11b
        b>>=1
    return p
def inv(a):
    r=1
    for _ in range(254): r=mul(r,a)
    return r
def split(secret,k,xs):
    coeffs=[[R.randrange(256) for _ in range(k-1)] for _ in secret]
    out=[]
    for x in xs:
        ys=[]
        for s,cs in zip(secret,coeffs):
            acc=0; xp=1; acc=s
            for c in cs:
                xp=mul(xp,x); acc^=mul(c,xp)
            ys.append(acc)
        out.append(bytes(ys)+bytes([x]))
    return out
vs=[]
for i,(k,xs,sub) in enumerate([(3,[1,2,3,4,5],[0,2,4]),(3,[1,2,3,4,5],[4,3,1]),(2,[17,200],[1,0]),(4,[3,99,250,7,128],[3,1,4,0])]):
    secret=bytes(R.randrange(256) for _ in range(32 if i<2 else 16))
    sh=split(secret,k,xs)
    vs.append({"id":f"combine-{i}","comment":f"{k}-of-{len(xs)} at x={xs}; share = y bytes then x","flags":["valid"],"input":{"shares_hex":[sh[j].hex() for j in sub],"secret_hex":secret.hex()},"expected":{"reconstructs":True,"error":""}})
    if i==0:
        vs.append({"id":"below-threshold","comment":"k-1 shares interpolate to a different value","flags":["invalid"],"input":{"shares_hex":[sh[0].hex(),sh[1].hex()],"secret_hex":secret.hex()},"expected":{"reconstructs":False,"error":""}})
        vs.append({"id":"duplicate-x","comment":"the same x twice","flags":["invalid"],"input":{"shares_hex":[sh[0].hex(),sh[0].hex(),sh[1].hex()],"secret_hex":secret.hex()},"expected":{"reconstructs":False,"error":"duplicate_share"}})
        z=sh[0][:-1]+b'\x00'
        vs.append({"id":"zero-x","comment":"x = 0 would be the secret itself","flags":["invalid"],"input":{"shares_hex":[z.hex(),sh[1].hex(),sh[2].hex()],"secret_hex":secret.hex()},"expected":{"reconstructs":False,"error":"zero_x"}})
        vs.append({"id":"mixed-lengths","comment":"shares of different lengths","flags":["invalid"],"input":{"shares_hex":[sh[0].hex(),sh[1][1:].hex(),sh[2].hex()],"secret_hex":secret.hex()},"expected":{"reconstructs":False,"error":"mixed_lengths"}})
F("shamir","Shamir over GF(2^8), polynomial 0x11b; share_hex = hex(y bytes || x byte), HashiCorp Vault's layout (BOUNTY-SHARE-LAYOUT, BOUNTY-SHAMIR). Shares made by an independent Python implementation.",vs)
